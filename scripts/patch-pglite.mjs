// Runs after `npm install` (package.json postinstall): makes PGlite's wire-protocol reader
// decode each text field from a view of its buffer instead of a copy of it
// (docs/decisions/019-pglite-field-decoding.md).
//
// PGlite's port of pg-protocol reads every field of every row with
// `decoder.decode(this.bytes(n))`, and `bytes(n)` copies the field into a new ArrayBuffer.
// A page of 30 patients is 540 fields, so 540 ArrayBuffers a query; that was about a third of
// the embedded server's CPU per list request. The rewrite decodes the same bytes in place, which
// TextDecoder does without a copy. The result is the same string.
//
// Idempotent. Never fails the install: a PGlite whose code no longer looks like this (fixed
// upstream, or rewritten) is left as it is, with a line saying so.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

const id = '[\\w$]+'
// bytes(t){let n=G(this,VIEW).buffer.slice(G(this,OFF),G(this,OFF)+t);return S(this,OFF,G(this,OFF)+t),new Uint8Array(n)}
const bytesFn = new RegExp(
  `bytes\\((${id})\\)\\{let (${id})=(${id})\\(this,(${id})\\)\\.buffer\\.slice\\(\\3\\(this,(${id})\\),\\3\\(this,\\5\\)\\+\\1\\);return (${id})\\(this,\\5,\\3\\(this,\\5\\)\\+\\1\\),new Uint8Array\\(\\2\\)\\}`,
)
// string(t){return G(this,DECODER).decode(this.bytes(t))}
const stringFn = new RegExp(
  `string\\((${id})\\)\\{return (${id})\\(this,(${id})\\)\\.decode\\(this\\.bytes\\(\\1\\)\\)\\}`,
)
const PATCHED = '.decode(new Uint8Array('

/** The patched text of one built file, or null when it holds no reader to patch. */
export function patchSource(source) {
  const bytes = bytesFn.exec(source)
  const string = stringFn.exec(source)
  if (!bytes || !string) return null
  const [, , , get, view, offset, set] = bytes
  const [whole, n, getDecoder, decoder] = string
  const at = '__arogyaAt'
  const replacement =
    `string(${n}){let ${at}=${get}(this,${offset});${set}(this,${offset},${at}+${n});` +
    `return ${getDecoder}(this,${decoder})${PATCHED}${get}(this,${view}).buffer,${at},${n}))}`
  return source.replace(whole, () => replacement)
}

function builtFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return builtFiles(path)
    return /\.(c|m)?js$/.test(entry.name) ? [path] : []
  })
}

function main() {
  let dist
  try {
    dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
  } catch {
    return // PGlite not installed (yet): nothing to do
  }
  let patched = 0
  let already = 0
  for (const file of builtFiles(dist)) {
    const source = readFileSync(file, 'utf8')
    if (!source.includes('decode(')) continue
    const next = patchSource(source)
    if (next !== null) {
      writeFileSync(file, next)
      patched++
    } else if (source.includes(PATCHED)) {
      already++
    }
  }
  const where = relative(process.cwd(), dist) || dist
  if (patched + already === 0) {
    console.log(
      `patch-pglite: no field reader to patch in ${where} (changed upstream?); PGlite runs as shipped`,
    )
  } else if (patched > 0) {
    console.log(`patch-pglite: ${patched} file(s) in ${where} decode fields without a copy`)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
