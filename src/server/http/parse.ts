import type { z } from 'zod'
import type { ApiIssue } from '../../shared/api-error'
import { AppError } from './app-error'

/** NUL (PostgreSQL text cannot hold it) or a UTF-16 surrogate without its pair (not Unicode). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what we look for
const invalidText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Deeper than any body the API accepts; a deeper one is refused before anything walks it. */
export const MAX_JSON_DEPTH = 32

/**
 * The first problem in a parsed JSON value: a string (or key) that no text column can store
 * faithfully, or nesting deeper than MAX_JSON_DEPTH. Walks with its own stack, so a body
 * nested 50,000 levels deep is a 400, not a stack overflow.
 */
function findInvalidText(root: unknown): ApiIssue | null {
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }]
  while (stack.length) {
    const { value, path } = stack.pop() as { value: unknown; path: string[] }
    if (typeof value === 'string') {
      if (invalidText.test(value))
        return { path: path.join('.'), message: 'Contains characters that are not allowed' }
      continue
    }
    if (!value || typeof value !== 'object') continue
    if (path.length >= MAX_JSON_DEPTH) {
      return { path: path.slice(0, 3).join('.'), message: 'The value is nested too deeply' }
    }
    const entries = Object.entries(value)
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string, unknown]
      if (invalidText.test(key))
        return {
          path: path.join('.'),
          message: 'A field name contains characters that are not allowed',
        }
      stack.push({ value: item, path: [...path, key] })
    }
  }
  return null
}

/** Throws a 400 when any string in the value (bodies of better-auth's routes too) cannot be stored. */
export function rejectInvalidText(value: unknown, where?: string): void {
  const invalid = findInvalidText(value)
  if (invalid) {
    const issue = { ...invalid, path: invalid.path || (where ?? '') }
    throw new AppError(
      'VALIDATION',
      `Invalid input: ${issue.path ? `${issue.path}: ` : ''}${issue.message}`,
      [issue],
    )
  }
}

/** Parses a body, query or params object with a shared schema; a failure is a 400 with field messages. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where?: string): z.output<S> {
  rejectInvalidText(value, where)
  let result: ReturnType<S['safeParse']>
  try {
    result = schema.safeParse(value ?? {}) as ReturnType<S['safeParse']>
  } catch {
    // zod runs length checks on anything with a `length` (to report more than the type), and
    // one whose `length` cannot be compared throws instead of failing: {"name":{"length":[{}]}}.
    const path = where ?? ''
    const message = 'has a value of the wrong type'
    throw new AppError('VALIDATION', `Invalid input: ${path ? `${path}: ` : ''}${message}`, [
      { path, message },
    ])
  }
  if (!result.success) throw AppError.fromZod(result.error, where)
  return result.data as z.output<S>
}
