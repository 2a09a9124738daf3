import { describe, expect, it } from 'vitest'
import { ApiError } from './api-client'
import { errorMessage } from './toast'

const refusal = (status: number, body: unknown) =>
  new ApiError(status, 'x', typeof body === 'string' ? body : JSON.stringify(body))

describe('errorMessage: a 4xx answer is what the toast says', () => {
  it('shows the server message of a 409', () => {
    const e = refusal(409, {
      message: 'This reminder was already sent at 10:02.',
      code: 'CONFLICT',
    })
    expect(errorMessage(e, 'Please try again.')).toBe('This reminder was already sent at 10:02.')
  })
  it('shows the message of 400, 403 and 404 answers', () => {
    for (const status of [400, 403, 404, 413, 429]) {
      expect(errorMessage(refusal(status, { message: `m${status}`, code: 'X' }), 'f')).toBe(
        `m${status}`,
      )
    }
  })
  it('falls back on a 5xx, a network error, or a body without a message', () => {
    expect(errorMessage(refusal(500, { message: 'internal', code: 'INTERNAL' }), 'f')).toBe('f')
    expect(errorMessage(new TypeError('Failed to fetch'), 'f')).toBe('f')
    expect(errorMessage(refusal(409, '<html>'), 'f')).toBe('f')
  })
})
