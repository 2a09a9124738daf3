import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AppError } from './app-error'
import { MAX_JSON_DEPTH, parse, rejectInvalidText } from './parse'

// What parse() refuses before a schema runs, at its edges (mutation testing,
// docs/decisions/024): text no column can store, field names alike, and deep nesting.

function refusal(run: () => unknown): { message: string; issues: unknown } {
  try {
    run()
  } catch (error) {
    if (error instanceof AppError) {
      expect(error.code).toBe('VALIDATION')
      expect(error.status).toBe(400)
      return { message: error.message, issues: error.issues }
    }
    throw error
  }
  throw new Error('expected a 400')
}

const BAD = 'Contains characters that are not allowed'

/** {a: {a: ... {a: leaf}}} with `depth` objects around the leaf. */
function nested(depth: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

describe('rejectInvalidText', () => {
  it.each([
    ['\u0000', ''],
    ['a\u0000', ''],
    ['\uD800', ''],
    ['x\uDBFF', ''],
    ['\uDBFFx', ''],
    ['\uDC00', ''],
    ['x\uDFFF', ''],
    ['\uDFFFx', ''],
    ['\uDC00\uD800', ''],
  ])('refuses the string %j', (text) => {
    expect(refusal(() => rejectInvalidText(text))).toEqual({
      message: `Invalid input: ${BAD}`,
      issues: [{ path: '', message: BAD }],
    })
  })

  it.each(['\uD800\uDC00', '\uDBFF\uDFFF', 'a\uD83D\uDE00b', '\uD7FF', '\uE000', '', 'plain'])(
    'takes the well-formed string %j',
    (text) => {
      expect(() => rejectInvalidText(text)).not.toThrow()
      expect(() => rejectInvalidText({ [text || 'k']: text })).not.toThrow()
    },
  )

  it('names `where` for a bad top-level value, and the field path otherwise', () => {
    expect(refusal(() => rejectInvalidText('\u0000', 'query'))).toEqual({
      message: `Invalid input: query: ${BAD}`,
      issues: [{ path: 'query', message: BAD }],
    })
    expect(refusal(() => rejectInvalidText({ a: { b: ['ok', 'x\u0000'] } }, 'body'))).toEqual({
      message: `Invalid input: a.b.1: ${BAD}`,
      issues: [{ path: 'a.b.1', message: BAD }],
    })
  })

  it('reports the first bad field in document order', () => {
    expect(refusal(() => rejectInvalidText({ first: '\u0000', second: '\u0000' })).issues).toEqual([
      { path: 'first', message: BAD },
    ])
    expect(refusal(() => rejectInvalidText({ ok: 'x', bad: '\u0000' })).issues).toEqual([
      { path: 'bad', message: BAD },
    ])
    expect(refusal(() => rejectInvalidText(['\u0000', 'x'])).issues).toEqual([
      { path: '0', message: BAD },
    ])
  })

  it('refuses a field name that cannot be stored, naming the object it is in', () => {
    const message = 'A field name contains characters that are not allowed'
    expect(refusal(() => rejectInvalidText({ 'a\u0000': 1 }))).toEqual({
      message: `Invalid input: ${message}`,
      issues: [{ path: '', message }],
    })
    expect(refusal(() => rejectInvalidText({ a: { ok: 1, '\uD800': 1 } })).issues).toEqual([
      { path: 'a', message },
    ])
    expect(refusal(() => rejectInvalidText({ a: { b: { '\uDC00': 1 } } })).issues).toEqual([
      { path: 'a.b', message },
    ])
  })

  it(`takes ${MAX_JSON_DEPTH} levels of nesting and refuses one more`, () => {
    expect(MAX_JSON_DEPTH).toBe(32)
    expect(() => rejectInvalidText(nested(MAX_JSON_DEPTH))).not.toThrow()
    expect(() => rejectInvalidText(nested(MAX_JSON_DEPTH, 'x'))).not.toThrow()
    const message = 'The value is nested too deeply'
    expect(refusal(() => rejectInvalidText(nested(MAX_JSON_DEPTH + 1)))).toEqual({
      message: `Invalid input: a.a.a: ${message}`,
      issues: [{ path: 'a.a.a', message }],
    })
    expect(refusal(() => rejectInvalidText(nested(MAX_JSON_DEPTH + 1), 'body')).issues).toEqual([
      { path: 'a.a.a', message },
    ])
    expect(() => rejectInvalidText(nested(50_000))).toThrow(AppError)
  })

  it('walks numbers, booleans and null without complaint', () => {
    expect(() => rejectInvalidText({ n: 0, f: false, z: null, t: true, s: '' })).not.toThrow()
    expect(() => rejectInvalidText(null)).not.toThrow()
    expect(() => rejectInvalidText(undefined)).not.toThrow()
  })
})

describe('parse', () => {
  it('answers 400 for a value zod throws on instead of failing', () => {
    const schema = z.strictObject({ name: z.string().trim().min(1).max(200) })
    const message = 'has a value of the wrong type'
    const value = { name: { length: [{ toString: 0 }] } }
    expect(refusal(() => parse(schema, value))).toEqual({
      message: `Invalid input: ${message}`,
      issues: [{ path: '', message }],
    })
    expect(refusal(() => parse(schema, value, 'body'))).toEqual({
      message: `Invalid input: body: ${message}`,
      issues: [{ path: 'body', message }],
    })
  })

  it('parses a missing value as an empty object', () => {
    const schema = z.strictObject({ limit: z.string().optional() })
    expect(parse(schema, undefined)).toEqual({})
    expect(parse(schema, null)).toEqual({})
  })
  it('checks the text before the schema', () => {
    const schema = z.strictObject({ name: z.string().max(1) })
    expect(refusal(() => parse(schema, { name: 'too long\u0000' }, 'body')).issues).toEqual([
      { path: 'name', message: BAD },
    ])
    expect(refusal(() => parse(schema, { name: 'xx' }, 'body')).message).toMatch(
      /^Invalid input: name: /,
    )
  })
})
