import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { GraphError } from '../../integrations/meta/graph'
import { recordGraphOutcome } from './connection.service'

/**
 * A Graph failure as the API answers it: 190 (token expired or revoked) marks the connection
 * as needing attention and is a 400 the user can fix in Settings; rate limits are a 429 to
 * retry later; anything else is Meta's own error text as a 502.
 */
export async function graphFailure(db: AppDb, hospitalId: string, error: unknown): Promise<never> {
  if (!(error instanceof GraphError)) throw error
  switch (error.kind) {
    case 'auth':
      await recordGraphOutcome(db, hospitalId, { needsAttention: error.message })
      throw new AppError('BAD_REQUEST', error.message)
    case 'rate_limited':
      throw new AppError('RATE_LIMITED', `${error.message} (Meta's rate limit; try again later)`)
    case 'provider':
    case 'network':
      throw new AppError('UPSTREAM', error.message)
  }
}
