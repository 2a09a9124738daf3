import type { FastifyInstance } from 'fastify'
import { saveSettingsInput } from '../../../shared/schemas/settings'
import { actingMember, authed, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { getSettings, saveSettings } from './settings.service'

/**
 * Settings' one save model (issue 27): every member of the hospital reads its settings; only
 * hospital:manage (admins) saves them. Always the caller's own hospital: no id in the path.
 * A session duration above the operator's SESSION_HOURS (`maxSessionHours`) is a 400 on its
 * field (issue 39): a hospital shortens sessions, never lengthens them.
 */
export function settingsRoutes(
  app: FastifyInstance,
  { db, maxSessionHours }: { db: AppDb; maxSessionHours: number },
): void {
  app.get('/api/settings', { config: authed }, async (req) =>
    getSettings({ db, ...actingMember(req) }),
  )

  app.put('/api/settings', { config: requirePermission('hospital:manage') }, async (req) => {
    const values = parse(saveSettingsInput, req.body)
    return saveSettings({ db, ...actingMember(req), values, maxSessionHours })
  })
}
