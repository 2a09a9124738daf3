import type { FastifyInstance, FastifyRequest } from 'fastify'
import { savePreferencesInput } from '../../../shared/schemas/preferences'
import { authed } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { getPreferences, savePreferences } from './preferences.service'

function me(req: FastifyRequest) {
  const actor = req.actor
  if (!actor) throw new AppError('UNAUTHENTICATED', 'Sign in first')
  return {
    userId: actor.userId,
    hospitalId: actor.hospitalId,
    impersonatorUserId: actor.impersonatedBy,
  }
}

/**
 * Settings → Appearance (issue 27): every signed-in user, of any role and of no hospital,
 * reads and sets their own preferences. No id in the path: nobody can name another user's.
 */
export function preferencesRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const signedIn = { config: authed }

  app.get('/api/me/preferences', signedIn, async (req) => getPreferences({ db, ...me(req) }))

  app.put('/api/me/preferences', signedIn, async (req) => {
    const values = parse(savePreferencesInput, req.body)
    return savePreferences({ db, ...me(req), values })
  })
}
