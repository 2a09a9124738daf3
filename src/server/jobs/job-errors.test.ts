import { DrizzleQueryError } from 'drizzle-orm/errors'
import { describe, expect, it } from 'vitest'
import { AppError } from '../http/app-error'
import { errorText } from '../http/logging'
import { GraphError } from '../integrations/meta/graph'
import { LeaseLostError, PermanentJobError, PublicJobError } from './registry'

// The one error-text rule (http/logging.ts errorText) as jobs use it for last_error and logs.

const NAME = 'Asha Verma'
const PHONE = '+919812345678'

/** What drizzle throws for a failed statement: its message lists the bound values. */
function failedQuery(code: string): Error {
  const cause = Object.assign(new Error(`invalid input syntax for type integer: "${PHONE}"`), {
    code,
    severity: 'ERROR',
  })
  return new DrizzleQueryError('select $1::text, $2::int', [NAME, PHONE], cause)
}

describe('errorText', () => {
  it('gives a failed statement its class and SQLSTATE, never its values', () => {
    const error = failedQuery('22P02')
    expect(error.message).toContain(PHONE)
    expect(errorText(error)).toBe('DrizzleQueryError (22P02)')
    expect(errorText(failedQuery('57014'))).toBe('DrizzleQueryError (57014)')
  })

  it('gives other errors their class and code, not their message', () => {
    expect(errorText(new Error(`no lead for ${NAME}`))).toBe('Error')
    expect(errorText(new TypeError(`bad ${PHONE}`))).toBe('TypeError')
    expect(errorText(new GraphError('auth', `Session for ${NAME} expired`, 190))).toBe(
      'GraphError (190)',
    )
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError')
    expect(errorText(timeout)).toBe('TimeoutError')
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    })
    expect(errorText(refused)).toBe('Error (ECONNREFUSED)')
    expect(errorText(new Error('outer', { cause: failedQuery('40001') }))).toBe('Error (40001)')
    expect(errorText(new LeaseLostError())).toBe('LeaseLostError')
    // A code that is not a code (it could carry anything) is left out.
    expect(errorText(Object.assign(new Error('x'), { code: `${NAME} ${PHONE}` }))).toBe('Error')
    expect(errorText('a thrown string')).toBe('Thrown string')
    expect(errorText(undefined)).toBe('Thrown undefined')
  })

  it('keeps the message of errors written for users, without credentials, at most 1,000 characters', () => {
    expect(errorText(new PermanentJobError('The uploaded file is no longer there'))).toBe(
      'The uploaded file is no longer there',
    )
    expect(errorText(new PublicJobError('Meta refused the page token'))).toBe(
      'Meta refused the page token',
    )
    expect(errorText(new AppError('NOT_FOUND', 'Import not found'))).toBe('Import not found')
    const text = errorText(
      new PermanentJobError(
        'GET https://graph.facebook.com/v19.0/123?access_token=EAAGsecret&fields=a failed; ' +
          'smtp://user:pa55@mail.example.in refused; Authorization: Bearer abc.def.ghi',
      ),
    )
    expect(text).toContain('GET https://graph.facebook.com/v19.0/123?access_token=[redacted]')
    expect(text).not.toMatch(/EAAGsecret|pa55|abc\.def\.ghi/)
    expect(errorText(new PublicJobError('x'.repeat(5000)))).toHaveLength(1000)
  })
})
