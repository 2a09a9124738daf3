import type { ZodError } from 'zod'
import { type ApiIssue, type ErrorCode, errorCodes } from '../../shared/api-error'

/** The one error type services and routes throw; the global handler turns it into the body. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly issues: ApiIssue[] | undefined

  constructor(code: ErrorCode, message: string, issues?: ApiIssue[]) {
    super(message)
    this.code = code
    this.issues = issues
  }

  get status(): number {
    return errorCodes[this.code]
  }

  static fromZod(error: ZodError, where?: string): AppError {
    const issues = error.issues.map((i) => ({
      path: i.path.length ? i.path.join('.') : (where ?? ''),
      message:
        i.code === 'unrecognized_keys' ? `Unknown field(s): ${i.keys.join(', ')}` : i.message,
    }))
    const first = issues[0]
    return new AppError(
      'VALIDATION',
      first
        ? `Invalid input: ${first.path ? `${first.path}: ` : ''}${first.message}`
        : 'Invalid input',
      issues,
    )
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`)
