import type { MessageChannel } from '../../../shared/messaging'
import type {
  MessagingChannelView,
  MessagingSettingsView,
  SaveMessagingSettingsInput,
} from '../../../shared/schemas/messaging-settings'
import type { AppDb } from '../../db/client'
import { messagingConnections } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import type { Mailer } from '../../integrations/email/mailer'
import type { GraphEndpoint } from '../../integrations/whatsapp-cloud/prove-ids'
import { assertSmtpSettingsAllowed } from '../../integrations/smtp/smtp-host'
import { encryptSecret, secretHint } from '../../secrets/secrets'
import { recordAudit } from '../audit/audit.service'
import { announceSettingsChanged, forgetWebhookConfig } from '../messaging-webhooks/config-cache'
import { forgetWhatsappRoutes } from '../messaging-webhooks/meta-routing'
import {
  channelValues,
  type ConnectionRow,
  configFromRow,
  providerOf,
  readConnectionRow,
} from './connection.service'
import { fieldsOf, secretContext, storageKey } from './fields'
import { proveBeforeSave, routeWhatsappIds } from './whatsapp-ids'
import { takeOver } from './whatsapp-takeover'

export interface SettingsOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
  /**
   * The public base (http/public-url.ts: BASE_URL, else the request's trusted origin): the
   * webhook addresses shown for the providers' consoles.
   */
  publicBase: string
}

/** What a save needs beyond reading: Meta's Graph API (WhatsApp ids are proven) and the mailer. */
export interface SaveDeps {
  graph: GraphEndpoint
  /** Tells another hospital's admins that a proven WhatsApp id left them (none: no email). */
  mailer?: Mailer | undefined
}

const channels: readonly MessageChannel[] = ['whatsapp', 'sms', 'email']

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
  const base = opts.publicBase
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
      metaLeads: `${base}/api/webhooks/meta`,
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
 * per hospital and field; the audit row names the changed fields, never a value. Meta WhatsApp
 * ids are proven with Graph first (whatsapp-ids.ts: a refusal is a 400 on the field and nothing
 * is saved) and routed to this hospital for the WhatsApp webhook; one another hospital held is
 * taken over after the save commits, and that hospital is told. Every instance drops its cached
 * webhook secrets of the hospital (S-webhooks' config cache: at once here, by NOTIFY elsewhere).
 */
export async function saveMessagingSettings(
  opts: SettingsOptions & SaveDeps & { values: SaveMessagingSettingsInput },
): Promise<MessagingSettingsView> {
  const { hospitalId, values } = opts
  await assertSmtpSettingsAllowed(values.email)
  const proof = await proveBeforeSave({ ...opts, input: values.whatsapp })
  const { row, routes } = await withTenant(opts.db, opts, async (tx) => {
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
    const routes = saved
      ? await routeWhatsappIds(tx, saved, proof, values.whatsapp !== undefined, opts)
      : { elsewhere: [], dropped: [] }
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
    return { row: saved, routes }
  })
  forgetWebhookConfig(opts.db, hospitalId)
  forgetWhatsappRoutes(opts.db, routes.dropped)
  if (proof && routes.elsewhere.length) await takeOver(opts, opts, proof, routes.elsewhere)
  return view(row, opts)
}
