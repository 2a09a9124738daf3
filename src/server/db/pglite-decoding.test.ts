// PGlite's field decoding as patched at install (scripts/patch-pglite.mjs, decision 019):
// the rewrite itself, that the installed PGlite carries it, and that rows still come back
// exactly as stored.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script without type declarations
import { patchSource } from '../../../scripts/patch-pglite.mjs'

const patch = patchSource as (source: string) => string | null

// The reader's two methods as PGlite 0.5.16 ships them (ESM chunk and CommonJS build).
const esm =
  'int32(){return 1}string(t){return r(this,le).decode(this.bytes(t))}cstring(){return ""}' +
  'bytes(t){let n=r(this,x).buffer.slice(r(this,w),r(this,w)+t);return d(this,w,r(this,w)+t),new Uint8Array(n)}'
const cjs =
  'string(t){return c(this,vr).decode(this.bytes(t))}' +
  'bytes(t){let r=c(this,he).buffer.slice(c(this,j),c(this,j)+t);return y(this,j,c(this,j)+t),new Uint8Array(r)}'

describe('patchSource', () => {
  it('decodes from a view of the buffer, moving the offset as bytes() did', () => {
    expect(patch(esm)).toContain(
      'string(t){let __arogyaAt=r(this,w);d(this,w,__arogyaAt+t);return r(this,le).decode(new Uint8Array(r(this,x).buffer,__arogyaAt,t))}',
    )
    expect(patch(cjs)).toContain(
      'string(t){let __arogyaAt=c(this,j);y(this,j,__arogyaAt+t);return c(this,vr).decode(new Uint8Array(c(this,he).buffer,__arogyaAt,t))}',
    )
    // bytes() itself stays for the callers that keep the bytes.
    expect(patch(esm)).toContain('bytes(t){let n=r(this,x).buffer.slice(')
  })

  it('leaves patched and unknown code alone', () => {
    expect(patch(patch(esm)!)).toBeNull()
    expect(patch('string(t){return this.decoder.decode(this.view.subarray(0,t))}')).toBeNull()
  })

  it('behaves as the original on a real reader shape', () => {
    // A reader written like the built one (private fields through helper functions).
    const build = (methods: string) =>
      new Function(
        'r',
        'd',
        'x',
        'w',
        'le',
        `return class { constructor(buf){ x.set(this,new DataView(buf)); w.set(this,0); le.set(this,new TextDecoder()) } ${methods} }`,
      )(
        (o: object, m: WeakMap<object, unknown>) => m.get(o),
        (o: object, m: WeakMap<object, unknown>, v: unknown) => m.set(o, v),
        new WeakMap(),
        new WeakMap(),
        new WeakMap(),
      ) as new (buf: ArrayBuffer) => {
        string: (n: number) => string
        bytes: (n: number) => Uint8Array
      }
    const text = 'Sanjeevani क्लिनिक · ₹1,200 🙂'
    const encoded = new TextEncoder().encode(`${text}|tail`)
    const lengthOfText = new TextEncoder().encode(text).length
    for (const Reader of [build(esm), build(patch(esm)!)]) {
      const reader = new Reader(encoded.slice().buffer)
      expect(reader.string(lengthOfText)).toBe(text)
      expect(reader.string(1)).toBe('|')
      expect(Array.from(reader.bytes(4))).toEqual(Array.from(new TextEncoder().encode('tail')))
    }
  })
})

describe('the installed PGlite', () => {
  const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
  const files = readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(c|m)?js$/.test(f))
    .map((f) => readFileSync(join(dist, f), 'utf8'))

  it('no longer copies each field before decoding it (npm install ran the patch)', () => {
    expect(files.filter((source) => /\.decode\(this\.bytes\(/.test(source))).toEqual([])
  })

  describe('rows', () => {
    let db: PGlite
    beforeAll(async () => {
      db = await PGlite.create()
    })
    afterAll(async () => {
      await db.close()
    })

    it('come back exactly as stored: scripts, empty strings, nulls, long values, many rows', async () => {
      await db.exec(`create table t (id int primary key, name text, note text)`)
      const names = ['Aarav Sharma', 'अनन्या देशपांडे', 'ಶ್ರೀನಿವಾಸ್', '', 'Dr. (Mrs.) Rao 🙂']
      const long = 'क'.repeat(70_000) // more than one protocol buffer
      const rows = Array.from({ length: 500 }, (_, i) => ({
        id: i,
        name: names[i % names.length]!,
        note: i % 7 === 0 ? null : i === 3 ? long : `note ${i} ₹${i * 10}`,
      }))
      await db.query(
        `insert into t select * from jsonb_to_recordset($1::jsonb) as x(id int, name text, note text)`,
        [JSON.stringify(rows)],
      )
      const back = await db.query<{ id: number; name: string; note: string | null }>(
        'select id, name, note from t order by id',
      )
      expect(back.rows).toEqual(rows)
      const arrays = await db.query('select name, note from t where id = 3', [], {
        rowMode: 'array',
      })
      expect(arrays.rows).toEqual([[names[3], long]])
    })
  })
})
