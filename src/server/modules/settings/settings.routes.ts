import type { FastifyInstance } from 'fastify'
import { saveSettingsInput } from '../../../shared/schemas/settings'
import { actingMember, authed, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { getSettings, saveSettings } from './settings.service'

/**
 * Settings' one save model (issue 27): every member of the hospital reads its settings; only
 * hospital:manage (admins) saves them. Always the caller's own hospital: no id in the path.
 */
export function settingsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  app.get('/api/settings', { config: authed }, async (req) =>
    getSettings({ db, ...actingMember(req) }),
  )

  app.put('/api/settings', { config: requirePermission('hospital:manage') }, async (req) => {
    const values = parse(saveSettingsInput, req.body)
    return saveSettings({ db, ...actingMember(req), values })
  })
}
