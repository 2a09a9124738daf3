import { and, eq, ne } from 'drizzle-orm'
import type { MessageChannel } from '../../../shared/messaging'
import type {
  MessagingChannelView,
  MessagingSettingsView,
  SaveMessagingSettingsInput,
} from '../../../shared/schemas/messaging-settings'
import type { AppDb, Tx } from '../../db/client'
import { messagingConnections, messagingRoutes } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { encryptSecret, secretHint } from '../../secrets/secrets'
import { recordAudit } from '../audit/audit.service'
import { announceSettingsChanged, forgetWebhookConfig } from '../messaging-webhooks/config-cache'
import {
  channelValues,
  type ConnectionRow,
  configFromRow,
  providerOf,
  readConnectionRow,
} from './connection.service'
import { fieldsOf, secretContext, storageKey } from './fields'

export interface SettingsOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
  /** The public base URL (env BASE_URL): the webhook addresses shown for the providers' consoles. */
  baseUrl: string
}

const channels: readonly MessageChannel[] = ['whatsapp', 'sms', 'email']

export const PHONE_NUMBER_TAKEN_MESSAGE =
  'This WhatsApp phone number ID is already connected to another hospital. Each number can belong to one hospital only: check the ID in WhatsApp Manager, or ask the platform administrator.'

function channelView(row: ConnectionRow | undefined, hospitalId: string, channel: MessageChannel) {
  const c = channelValues(row, hospitalId, channel)
  const fields = fieldsOf(channel, c.provider)
  const settings: MessagingChannelView['settings'] = {}
  const secrets: MessagingChannelView['secrets'] = {}
  for (const f of fields?.settings ?? []) {
    const v = c.values[f]
    if (v !== undefined) settings[f] = v
  }
  for (const f of fields?.secrets ?? []) {
    const v = c.values[f]
    secrets[f] = secretHint(typeof v === 'string' ? v : null)
  }
  return { provider: c.provider, settings, secrets }
}

function view(row: ConnectionRow | undefined, opts: SettingsOptions): MessagingSettingsView {
  const config = configFromRow(row, opts.hospitalId)
  const base = opts.baseUrl.replace(/\/+$/, '')
  const [whatsapp, sms, email] = channels.map((ch) => ({
    ...channelView(row, opts.hospitalId, ch),
    sandbox: config[ch].provider === 'sandbox',
  })) as [MessagingChannelView, MessagingChannelView, MessagingChannelView]
  return {
    whatsapp,
    sms,
    email,
    webhookUrls: {
      twilioStatus: `${base}/api/webhooks/twilio/${opts.hospitalId}/status`,
      twilioInbound: `${base}/api/webhooks/twilio/${opts.hospitalId}/inbound`,
      whatsapp: `${base}/api/webhooks/whatsapp`,
      sendgrid: `${base}/api/webhooks/sendgrid/${opts.hospitalId}`,
    },
  }
}

/** GET /api/settings/messaging: no secret, only whether each is set and its last 4. */
export async function getMessagingSettings(opts: SettingsOptions): Promise<MessagingSettingsView> {
  const row = await withTenant(opts.db, opts, (tx) => readConnectionRow(tx))
  return view(row, opts)
}

type ChannelInput = NonNullable<SaveMessagingSettingsInput['whatsapp' | 'sms' | 'email']>

interface Stored {
  settings: Map<string, string | number | boolean>
  secrets: Map<string, string>
}

/**
 * One channel's input applied to the stored maps: another provider drops the channel's old
 * fields; a setting '' clears it; a secret left out or '' is kept. Returns the changed fields'
 * names (for the audit row: never a value).
 */
function apply(
  stored: Stored,
  hospitalId: string,
  channel: MessageChannel,
  before: string,
  input: ChannelInput,
): string[] {
  const changed: string[] = []
  const prefix = `${channel}.`
  if (before !== input.provider) {
    for (const map of [stored.settings, stored.secrets]) {
      for (const key of [...map.keys()]) if (key.startsWith(prefix)) map.delete(key)
    }
    changed.push('provider')
  }
  for (const [field, value] of Object.entries(input.settings as Record<string, unknown>)) {
    if (value === undefined) continue
    const key = storageKey(channel, field)
    if (value === '') {
      if (stored.settings.delete(key)) changed.push(field)
    } else if (stored.settings.get(key) !== value) {
      stored.settings.set(key, value as string | number | boolean)
      changed.push(field)
    }
  }
  for (const [field, value] of Object.entries(input.secrets as Record<string, unknown>)) {
    if (typeof value !== 'string' || value === '') continue
    stored.secrets.set(
      storageKey(channel, field),
      encryptSecret(value, secretContext(hospitalId, channel, field)),
    )
    changed.push(field)
  }
  return changed
}

/**
 * PUT /api/settings/messaging (admins). A channel left out is unchanged. Secrets are encrypted
 * per hospital and field; the audit row names the changed fields, never a value. A Meta phone
 * number id is routed to this hospital (messaging_routes) for the WhatsApp webhook: one already
 * routed to another hospital is a 409. Every instance drops its cached webhook secrets of the
 * hospital (S-webhooks' config cache: at once here, by NOTIFY elsewhere).
 */
export async function saveMessagingSettings(
  opts: SettingsOptions & { values: SaveMessagingSettingsInput },
): Promise<MessagingSettingsView> {
  const { hospitalId, values } = opts
  const row = await withTenant(opts.db, opts, async (tx) => {
    const [locked] = await tx.select().from(messagingConnections).for('update')
    const stored: Stored = {
      settings: new Map(Object.entries(locked?.settings ?? {})),
      secrets: new Map(Object.entries(locked?.secrets ?? {})),
    }
    const providers = {
      whatsapp: locked?.whatsappProvider ?? 'sandbox',
      sms: locked?.smsProvider ?? 'sandbox',
      email: locked?.emailProvider ?? 'sandbox',
    }
    const summary: string[] = []
    for (const channel of channels) {
      const input = values[channel]
      if (!input) continue
      const before = locked ? providerOf(locked, channel) : 'sandbox'
      const changed = apply(stored, hospitalId, channel, before, input)
      Object.assign(providers, { [channel]: input.provider })
      summary.push(`${channel} ${input.provider}${changed.length ? `: ${changed.join(', ')}` : ''}`)
    }
    const changes = {
      whatsappProvider: providers.whatsapp,
      smsProvider: providers.sms,
      emailProvider: providers.email,
      settings: Object.fromEntries(stored.settings),
      secrets: Object.fromEntries(stored.secrets),
      updatedAt: new Date(),
    }
    const [saved] = await tx
      .insert(messagingConnections)
      .values({ hospitalId, ...changes })
      .onConflictDoUpdate({ target: messagingConnections.hospitalId, set: changes })
      .returning()
    await routeWhatsappNumber(tx, saved)
    await recordAudit(tx, {
      hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'messaging.settings_saved',
      entityType: 'messaging_connection',
      entityId: null,
      summary: `Messaging settings saved (${summary.join('; ') || 'no changes'})`,
    })
    await announceSettingsChanged(tx, hospitalId)
    return saved
  })
  forgetWebhookConfig(opts.db, hospitalId)
  return view(row, opts)
}

/**
 * The hospital's Meta WhatsApp route follows its saved phone number id: another number, another
 * provider or no number withdraws the old route; a number another hospital holds is a 409 (the
 * whole save is rolled back).
 */
async function routeWhatsappNumber(tx: Tx, row: ConnectionRow | undefined): Promise<void> {
  if (!row) return
  const id = row.whatsappProvider === 'meta' ? row.settings['whatsapp.phoneNumberId'] : undefined
  const phoneNumberId = typeof id === 'string' && id ? id : null
  const own = and(
    eq(messagingRoutes.hospitalId, row.hospitalId),
    eq(messagingRoutes.provider, 'meta'),
  )
  await tx
    .delete(messagingRoutes)
    .where(phoneNumberId ? and(own, ne(messagingRoutes.externalId, phoneNumberId)) : own)
  if (!phoneNumberId) return
  const [inserted] = await tx
    .insert(messagingRoutes)
    .values({ provider: 'meta', externalId: phoneNumberId, hospitalId: row.hospitalId })
    .onConflictDoNothing()
    .returning({ id: messagingRoutes.externalId })
  if (inserted) return
  // Not inserted: the route is this hospital's already (visible under RLS) or another's.
  const [mine] = await tx
    .select({ id: messagingRoutes.externalId })
    .from(messagingRoutes)
    .where(and(own, eq(messagingRoutes.externalId, phoneNumberId)))
  if (!mine) {
    throw new AppError('CONFLICT', PHONE_NUMBER_TAKEN_MESSAGE, [
      { path: 'whatsapp.settings.phoneNumberId', message: PHONE_NUMBER_TAKEN_MESSAGE },
    ])
  }
}
