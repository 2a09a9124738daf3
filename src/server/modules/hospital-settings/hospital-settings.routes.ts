import type { FastifyInstance } from 'fastify'
import {
  saveBookingSettingsInput,
  updateHospitalSettingsInput,
} from '../../../shared/schemas/hospital-settings'
import { actingMember, authed, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { getBookingSettings, saveBookingSettings } from './booking-settings.service'
import { getHospitalSettings, updateHospitalSettings } from './hospital-settings.service'

/**
 * Settings → General (issue 26): the hospital's own settings and its booking page card. Any
 * member reads them (signed in, and a member: actingMember refuses anyone else with a 403);
 * only hospital:manage (admins) changes them. Always the caller's own hospital: no id in the
 * path, so another hospital's settings cannot even be named.
 */
export function hospitalSettingsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const manage = { config: requirePermission('hospital:manage') }
  const member = { config: authed }

  app.get('/api/hospital/settings', member, async (req) =>
    getHospitalSettings({ db, ...actingMember(req) }),
  )

  app.patch('/api/hospital/settings', manage, async (req) => {
    const values = parse(updateHospitalSettingsInput, req.body)
    return updateHospitalSettings({ db, ...actingMember(req), values })
  })

  app.get('/api/settings/booking', member, async (req) =>
    getBookingSettings({ db, ...actingMember(req) }),
  )

  app.put('/api/settings/booking', manage, async (req) => {
    const values = parse(saveBookingSettingsInput, req.body)
    return saveBookingSettings({ db, ...actingMember(req), values })
  })
}
