import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import { apiErrorBody, type ApiErrorBody } from '../../src/shared/api-error'

/** Text that would betray a stack trace or server internals in a response body. */
const internals = /\n\s+at |\bat .+\.(ts|js|mjs):\d+|node_modules|"stack"|\/work\/|\/src\/server\//

/** The body carries no stack trace, file path or driver detail. */
export function expectNoInternals(res: LightMyRequestResponse): void {
  expect(res.body).not.toMatch(internals)
}

/** Asserts the one error shape {message, code, issues?} with the given status (and code). */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code?: string,
): ApiErrorBody {
  expect(res.statusCode, res.body).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  const body = apiErrorBody.strict().parse(res.json())
  expect(body.message.length).toBeGreaterThan(0)
  if (code) expect(body.code).toBe(code)
  expectNoInternals(res)
  return body
}

/** The issue paths of a 400 validation error, sorted. */
export function issuePaths(res: LightMyRequestResponse): string[] {
  const body = expectError(res, 400, 'VALIDATION')
  expect(body.issues?.length).toBeGreaterThan(0)
  for (const issue of body.issues ?? []) expect(issue.message.length).toBeGreaterThan(0)
  return [...new Set((body.issues ?? []).map((i) => i.path))].sort()
}
