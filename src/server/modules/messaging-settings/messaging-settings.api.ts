import type { FastifyInstance } from 'fastify'
import type { AppDb } from '../../db/client'
import type { Mailer } from '../../integrations/email/mailer'
import type { ProviderUrls } from '../../integrations/messaging/registry'
import { messagingSettingsRoutes } from './messaging-settings.routes'
import { notificationsRoutes } from './notifications.routes'
import { templatesRoutes } from './templates.routes'

export interface MessagingSettingsApiDeps {
  db: AppDb
  baseURL?: string | undefined
  /** env's provider URLs (providerUrlsFromEnv); the providers' own by default. */
  urls?: ProviderUrls | undefined
  /** Meta's Graph API as the app was given it (used when `urls` is not). */
  metaGraph?: { baseUrl: string; version: string } | undefined
  /** Tells another hospital's admins when a WhatsApp id they held is proven here (issue 39). */
  mailer?: Mailer | undefined
  /** Development or demo server: admins see booking codes in the Sandbox Outbox. */
  revealSandboxCodes?: boolean | undefined
}

/** The providers' own addresses, for an app built without env's (some tests). */
export function defaultProviderUrls(metaGraph?: {
  baseUrl: string
  version: string
}): ProviderUrls {
  return {
    twilio: 'https://api.twilio.com',
    msg91: 'https://control.msg91.com',
    sendgrid: 'https://api.sendgrid.com',
    metaGraph: metaGraph?.baseUrl ?? 'https://graph.facebook.com',
    metaGraphVersion: metaGraph?.version ?? 'v21.0',
    sandboxDeliveryMs: 3_000,
  }
}

/**
 * Issue 25's settings side, registered by app.ts in one call: messaging connections and test
 * sends, templates, notification settings, pending reminders and the Sandbox Outbox.
 */
export function messagingSettingsApi(app: FastifyInstance, deps: MessagingSettingsApiDeps): void {
  const urls = deps.urls ?? defaultProviderUrls(deps.metaGraph)
  messagingSettingsRoutes(app, { db: deps.db, baseURL: deps.baseURL, urls, mailer: deps.mailer })
  templatesRoutes(app, { db: deps.db, urls })
  notificationsRoutes(app, { db: deps.db, revealSandboxCodes: deps.revealSandboxCodes })
}
