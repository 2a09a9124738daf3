import { sql } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { AppDb } from '../../src/server/db/client'
import { communications } from '../../src/server/db/schema/leads'
import { messagingConnections, messagingRoutes } from '../../src/server/db/schema/messaging'
import { withTenant } from '../../src/server/db/tenant'
import { twilioSignature } from '../../src/server/integrations/messaging/signatures'
import { signMetaBody, verifyTokenDigest } from '../../src/server/integrations/meta/signature'
import { forgetWebhookConfig } from '../../src/server/modules/messaging-webhooks/config-cache'
import { secretContext, storageKey } from '../../src/server/modules/messaging-settings/fields'
import { encryptSecret } from '../../src/server/secrets/secrets'
import type { MessageChannel } from '../../src/shared/messaging'
import { queryRows } from './test-app'

type Fields = Record<string, string | number | boolean>
export interface ChannelSetup {
  provider: string
  settings?: Fields
  secrets?: Record<string, string>
}

/**
 * Saves a hospital's messaging set-up as Settings stores it (messaging_connections: settings
 * flat as '<channel>.<field>', secrets encrypted) and routes its Meta phone number id, then
 * drops the webhooks' cached copy.
 */
/**
 * A Twilio connection for configureMessaging: an account SID of one repeated digit (so
 * suites' accounts differ), a sender, and the auth token that signs its webhooks.
 */
export const twilioConnection = (
  authToken: string,
  sidDigit = '1',
  from = '+14155550100',
): ChannelSetup => ({
  provider: 'twilio',
  settings: { accountSid: `AC${sidDigit.repeat(32)}`, from },
  secrets: { authToken },
})

export async function configureMessaging(
  db: AppDb,
  hospitalId: string,
  setup: Partial<Record<MessageChannel, ChannelSetup>>,
): Promise<void> {
  const settings: Fields = {}
  const secrets: Record<string, string> = {}
  for (const [channel, c] of Object.entries(setup) as [MessageChannel, ChannelSetup][]) {
    for (const [k, v] of Object.entries(c.settings ?? {})) settings[storageKey(channel, k)] = v
    for (const [k, v] of Object.entries(c.secrets ?? {})) {
      secrets[storageKey(channel, k)] = encryptSecret(v, secretContext(hospitalId, channel, k))
    }
  }
  await withTenant(db, { hospitalId, userId: null }, async (tx) => {
    const values = {
      hospitalId,
      whatsappProvider: (setup.whatsapp?.provider ?? 'sandbox') as 'sandbox',
      smsProvider: (setup.sms?.provider ?? 'sandbox') as 'sandbox',
      emailProvider: (setup.email?.provider ?? 'sandbox') as 'sandbox',
      settings,
      secrets,
    }
    await tx
      .insert(messagingConnections)
      .values(values)
      .onConflictDoUpdate({ target: messagingConnections.hospitalId, set: values })
    await tx.delete(messagingRoutes).where(sql`true`)
    // As a proven save leaves the index (issue 39): the number with its verify token's digest,
    // and the business account.
    const phoneNumberId = setup.whatsapp?.settings?.phoneNumberId
    const businessAccountId = setup.whatsapp?.settings?.businessAccountId
    const verifyToken = setup.whatsapp?.secrets?.verifyToken
    if (setup.whatsapp?.provider === 'meta' && typeof phoneNumberId === 'string') {
      await tx.insert(messagingRoutes).values({
        provider: 'meta',
        externalId: phoneNumberId,
        hospitalId,
        verifyTokenSha256: verifyToken ? verifyTokenDigest(verifyToken) : null,
      })
    }
    if (setup.whatsapp?.provider === 'meta' && typeof businessAccountId === 'string') {
      await tx
        .insert(messagingRoutes)
        .values({ provider: 'meta-waba', externalId: businessAccountId, hospitalId })
    }
  })
  forgetWebhookConfig(db, hospitalId)
}

/** An outbound message as the send pipeline leaves it with the provider's id. */
export async function outboundMessage(
  db: AppDb,
  hospitalId: string,
  values: {
    leadId: string
    type: 'whatsapp' | 'sms' | 'email'
    provider: 'twilio' | 'meta' | 'sendgrid'
    providerMessageId: string | null
    contactAddress: string
    status?: 'queued' | 'sending' | 'sent'
  },
): Promise<string> {
  const [row] = await withTenant(db, { hospitalId, userId: null }, (tx) =>
    tx
      .insert(communications)
      .values({
        hospitalId,
        leadId: values.leadId,
        type: values.type,
        direction: 'outbound',
        content: 'Your appointment is tomorrow at 10:00.',
        status: values.status ?? 'sent',
        contactAddress: values.contactAddress,
        provider: values.provider,
        providerMessageId: values.providerMessageId,
      })
      .returning({ id: communications.id }),
  )
  if (!row) throw new Error('not stored')
  return row.id
}

export interface StoredMessage {
  status: string
  failure_code: string | null
  failure_reason: string | null
  provider_message_id: string | null
}

/** A communication as stored (read as the connecting role, whichever hospital). */
export async function messageRow(db: AppDb, id: string): Promise<StoredMessage> {
  const [row] = await queryRows<StoredMessage>(
    db,
    sql`select status, failure_code, failure_reason, provider_message_id from communications where id = ${id}`,
  )
  if (!row) throw new Error('no such message')
  return row
}

/** Consent records of an address, oldest first. */
export async function consentsOf(db: AppDb, address: string) {
  return queryRows<{ hospital_id: string; channel: string; action: string; method: string }>(
    db,
    sql`select hospital_id, channel, action, method from consent_records
        where contact_address = ${address} order by created_at, ctid`,
  )
}

/** Twilio's 34-character message SID. */
let sidSeq = 0
export function twilioSid(prefix = 'SM'): string {
  sidSeq++
  return `${prefix}${sidSeq.toString(16).padStart(8, '0')}${'a'.repeat(24)}`
}

/**
 * POSTs a form to a Twilio webhook path, signed as Twilio signs it (with `token`) over the
 * public URL `http://localhost<path>` (no BASE_URL in tests: the request's own origin).
 */
export function postTwilio(
  app: FastifyInstance,
  path: string,
  params: Record<string, string>,
  token: string | null,
  signedUrl = `http://localhost${path}`,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {
    host: 'localhost',
    'content-type': 'application/x-www-form-urlencoded',
  }
  if (token) headers['x-twilio-signature'] = twilioSignature(signedUrl, params, token)
  return app.inject({
    method: 'POST',
    url: path,
    headers,
    payload: new URLSearchParams(params).toString(),
  })
}

/** POSTs a WhatsApp Cloud API delivery signed with `appSecret` (null: unsigned). */
export function postWhatsapp(
  app: FastifyInstance,
  body: unknown,
  appSecret: string | null,
): Promise<LightMyRequestResponse> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (appSecret) headers['x-hub-signature-256'] = signMetaBody(raw, appSecret)
  return app.inject({ method: 'POST', url: '/api/webhooks/whatsapp', headers, payload: raw })
}

/** A WhatsApp Cloud API delivery of one `messages` change for a business number. */
export function whatsappDelivery(phoneNumberId: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '419561257915477',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  }
}
