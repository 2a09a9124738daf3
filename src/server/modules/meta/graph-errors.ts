import { appSecretRefusedMessage } from '../../../shared/schemas/meta'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { GraphError } from '../../integrations/meta/graph'
import { recordGraphOutcome } from './connection.service'

/** What Settings and the API say when Graph refused the token (190) or our appsecret_proof. */
export function refusalMessage(error: GraphError): string {
  return error.kind === 'app_secret' ? appSecretRefusedMessage(error.message) : error.message
}

/**
 * A Graph failure as the API answers it: 190 (token expired or revoked) or a refused
 * appsecret_proof (the app secret is not the token's app's) marks the connection as needing
 * attention, lapses the page's claim, and is a 400 the user can fix in Settings; rate limits
 * are a 429 to retry later; anything else is Meta's own error text as a 502.
 */
export async function graphFailure(db: AppDb, hospitalId: string, error: unknown): Promise<never> {
  if (!(error instanceof GraphError)) throw error
  switch (error.kind) {
    case 'auth':
    case 'app_secret': {
      const message = refusalMessage(error)
      await recordGraphOutcome(db, hospitalId, { needsAttention: message })
      throw new AppError('BAD_REQUEST', message)
    }
    case 'rate_limited':
      throw new AppError('RATE_LIMITED', `${error.message} (Meta's rate limit; try again later)`)
    case 'provider':
    case 'network':
      throw new AppError('UPSTREAM', error.message)
  }
}
