import type { FastifyInstance } from 'fastify'
import { can } from '../../../shared/permissions'
import { saveVoiceSettingsInput, voiceTestCallInput } from '../../../shared/schemas/voice-settings'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { publicBase } from '../../http/public-url'
import { defaultVoiceOptions, type VoiceOptions } from '../calls/voice-registry'
import { voiceTestCall } from './test-call.service'
import { getVoiceSettings, saveVoiceSettings } from './voice-settings.service'

/**
 * Settings → Integrations → Voice (issue 41; schemas and routes: shared/schemas/voice-settings.ts).
 * Every member reads the provider, calling hours and recording (leads:read: the click-to-call
 * screens say "Sandbox" and the hours); the account fields, secret hints and callback URLs, the
 * save and the test call are for admins (integrations:manage), never a support visit.
 */
export function voiceSettingsRoutes(
  app: FastifyInstance,
  {
    db,
    voice = defaultVoiceOptions,
    baseURL,
  }: { db: AppDb; voice?: VoiceOptions | undefined; baseURL?: string | undefined },
): void {
  const read = { config: requirePermission('leads:read') }
  const manage = { config: requirePermission('integrations:manage') }

  app.get('/api/settings/voice', read, async (req) => {
    const acting = actingMember(req)
    return getVoiceSettings({
      db,
      ...acting,
      canManage: can(acting.actingRole, 'integrations:manage'),
      publicBase: publicBase(baseURL, req),
    })
  })

  app.put('/api/settings/voice', manage, async (req) => {
    const values = parse(saveVoiceSettingsInput, req.body)
    return saveVoiceSettings({
      db,
      ...actingMember(req),
      canManage: true,
      publicBase: publicBase(baseURL, req),
      values,
    })
  })

  app.post('/api/settings/voice/test-call', manage, async (req) => {
    const { phone } = parse(voiceTestCallInput, req.body)
    return voiceTestCall({ db, ...actingMember(req), voice, phone })
  })
}
