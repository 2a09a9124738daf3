import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  saveMessagingSettingsInput,
  testSendInput,
} from '../../../shared/schemas/messaging-settings'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { publicBase } from '../../http/public-url'
import type { Mailer } from '../../integrations/email/mailer'
import type { ProviderUrls } from '../../integrations/messaging/registry'
import { getMessagingSettings, saveMessagingSettings } from './settings.service'
import { testSend } from './test-send.service'

export interface MessagingSettingsDeps {
  db: AppDb
  /** BASE_URL (else the request's origin): the webhook addresses Settings shows. */
  baseURL?: string | undefined
  /** Where the providers live (env; tests point them at the fakes). */
  urls: ProviderUrls
  /** Tells another hospital's admins when a WhatsApp id they held is proven here. */
  mailer?: Mailer | undefined
}

/**
 * Settings → Integrations, messaging part (issue 25): like Meta's connection
 * (meta.routes.ts), reading and writing both need hospital:manage (admins), since even the
 * non-secret settings are the hospital's provider accounts.
 */
export function messagingSettingsRoutes(app: FastifyInstance, deps: MessagingSettingsDeps): void {
  const { db, urls } = deps
  const read = { config: requirePermission('hospital:manage') }
  const manage = { config: requirePermission('integrations:manage') }
  // The webhook addresses are built like every public URL: BASE_URL, else this request's origin.
  const base = (req: FastifyRequest) => publicBase(deps.baseURL, req)

  app.get('/api/settings/messaging', read, async (req) =>
    getMessagingSettings({ db, publicBase: base(req), ...actingMember(req) }),
  )

  app.put('/api/settings/messaging', manage, async (req) => {
    const values = parse(saveMessagingSettingsInput, req.body)
    const graph = { baseUrl: urls.metaGraph, version: urls.metaGraphVersion }
    const { mailer } = deps
    const acting = { ...actingMember(req), publicBase: base(req) }
    return saveMessagingSettings({ db, graph, mailer, ...acting, values })
  })

  app.post('/api/settings/messaging/test', manage, async (req) => {
    const { channel, to } = parse(testSendInput, req.body)
    return testSend({ db, urls, ...actingMember(req), channel, to })
  })
}
