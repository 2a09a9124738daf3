import type { z } from 'zod'
import type { ApiIssue } from '../../shared/api-error'
import { AppError } from './app-error'

/** NUL (PostgreSQL text cannot hold it) or a UTF-16 surrogate without its pair (not Unicode). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what we look for
const invalidText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The first string (or key) in a parsed JSON value that no text column can store faithfully. */
function findInvalidText(value: unknown, path: string[] = []): ApiIssue | null {
  if (typeof value === 'string') {
    return invalidText.test(value)
      ? { path: path.join('.'), message: 'Contains characters that are not allowed' }
      : null
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (invalidText.test(key))
        return {
          path: path.join('.'),
          message: 'A field name contains characters that are not allowed',
        }
      const found = findInvalidText(item, [...path, key])
      if (found) return found
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
  const result = schema.safeParse(value ?? {})
  if (!result.success) throw AppError.fromZod(result.error, where)
  return result.data
}
