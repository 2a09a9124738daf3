import { describe, expect, it } from 'vitest'
import { isUniqueViolation, sqlCode } from './sql-error'

describe('sqlCode', () => {
  it('finds the SQLSTATE however deep drizzle wrapped it', () => {
    const driver = Object.assign(new Error('duplicate key'), { code: '23505' })
    const wrapped = new Error('Failed query', { cause: new Error('x', { cause: driver }) })
    expect(sqlCode(wrapped)).toBe('23505')
    expect(isUniqueViolation(wrapped)).toBe(true)
  })

  it('ignores codes that are not SQLSTATEs and errors without one', () => {
    expect(sqlCode(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeUndefined()
    expect(sqlCode('23505')).toBeUndefined()
    expect(isUniqueViolation(Object.assign(new Error('x'), { code: '23503' }))).toBe(false)
  })
})
