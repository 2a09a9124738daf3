/**
 * PostgreSQL's SQLSTATE of a failed statement, wherever it sits in the error's cause chain
 * (drizzle and the drivers wrap driver errors), or undefined for any other error.
 */
export function sqlCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}

/** A unique violation (23505): two requests raced for one key, or the key is taken. */
export const isUniqueViolation = (error: unknown): boolean => sqlCode(error) === '23505'
