import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { AppError } from './app-error'
import { parse, rejectInvalidText } from './parse'

function caught(run: () => unknown): AppError {
  try {
    run()
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected an AppError')
}

describe('parse', () => {
  const schema = z.strictObject({ name: z.string(), tags: z.array(z.string()).optional() })

  it('returns the parsed value', () => {
    expect(parse(schema, { name: 'A' })).toEqual({ name: 'A' })
  })

  it('turns zod issues into a 400 with paths, naming unknown fields', () => {
    const error = caught(() => parse(schema, { name: 1, extra: true }))
    expect(error.status).toBe(400)
    expect(error.code).toBe('VALIDATION')
    expect(error.issues?.map((i) => i.path).sort()).toEqual(['', 'name'])
    expect(error.issues?.find((i) => i.path === '')?.message).toMatch(/Unknown field\(s\): extra/)
  })

  it('answers 400, not a crash, when zod throws on a value it cannot compare', () => {
    // Found by patients.property.test.ts: zod runs min/max on anything with a `length`.
    const named = z.strictObject({ name: z.string().trim().min(1).max(200) })
    const error = caught(() => parse(named, { name: { length: [{ toString: 0 }] } }, 'body'))
    expect(error.code).toBe('VALIDATION')
    expect(error.issues).toEqual([{ path: 'body', message: 'has a value of the wrong type' }])
  })

  it('uses `where` as the path of a whole-value issue', () => {
    expect(caught(() => parse(schema, 'text', 'query')).issues?.[0]?.path).toBe('query')
  })

  it.each([
    [{ name: 'a\u0000b' }, 'name'],
    [{ name: '\uD800' }, 'name'],
    [{ name: 'x\uDC00' }, 'name'],
    [{ name: 'A', tags: ['ok', 'b\u0000'] }, 'tags.1'],
  ])('refuses %j, naming %s, before the schema runs', (value, path) => {
    const error = caught(() => parse(schema, value))
    expect(error.code).toBe('VALIDATION')
    expect(error.issues).toEqual([{ path, message: 'Contains characters that are not allowed' }])
  })

  it('accepts well-formed text of any script, including astral characters', () => {
    for (const name of ['नमस्ते', 'مرحبا', '😀', '𝕬', '\u202Eevil', 'Ó Briain']) {
      expect(parse(schema, { name })).toEqual({ name })
    }
    expect(() => rejectInvalidText({ a: [{ b: 'fine' }], n: 1, z: null })).not.toThrow()
  })

  it('refuses a field name that cannot be stored', () => {
    expect(caught(() => rejectInvalidText({ 'a\u0000': 1 })).code).toBe('VALIDATION')
  })
})
