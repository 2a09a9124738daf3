import type { FastifyInstance } from 'fastify'
import {
  saveMessagingSettingsInput,
  testSendInput,
} from '../../../shared/schemas/messaging-settings'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import type { Mailer } from '../../integrations/email/mailer'
import type { ProviderUrls } from '../../integrations/messaging/registry'
import { getMessagingSettings, saveMessagingSettings } from './settings.service'
import { testSend } from './test-send.service'

export interface MessagingSettingsDeps {
  db: AppDb
  /** BASE_URL: the webhook addresses Settings shows. */
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
  const baseUrl = deps.baseURL ?? 'http://localhost:3000'

  app.get('/api/settings/messaging', read, async (req) =>
    getMessagingSettings({ db, baseUrl, ...actingMember(req) }),
  )

  app.put('/api/settings/messaging', manage, async (req) => {
    const values = parse(saveMessagingSettingsInput, req.body)
    const graph = { baseUrl: urls.metaGraph, version: urls.metaGraphVersion }
    const { mailer } = deps
    return saveMessagingSettings({ db, baseUrl, graph, mailer, ...actingMember(req), values })
  })

  app.post('/api/settings/messaging/test', manage, async (req) => {
    const { channel, to } = parse(testSendInput, req.body)
    return testSend({ db, urls, ...actingMember(req), channel, to })
  })
}
