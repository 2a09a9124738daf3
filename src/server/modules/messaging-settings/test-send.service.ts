import { randomUUID } from 'node:crypto'
import type { MessageChannel } from '../../../shared/messaging'
import { normalizePhone } from '../../../shared/phone'
import type { TestSendResult } from '../../../shared/schemas/messaging-settings'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { countHit } from '../../http/rate-limit-store'
import type { OutboundMessage, SendResult } from '../../integrations/messaging/provider'
import { type ProviderUrls, providerFor } from '../../integrations/messaging/registry'
import { SMTP_UNREACHABLE_MESSAGE } from '../../integrations/smtp/smtp-host'
import { SMTP_UNREACHABLE_CODE } from '../../integrations/smtp/smtp-provider'
import { recordAudit } from '../audit/audit.service'
import { readMessagingConfig } from './connection.service'

/** How long the admin waits for the provider's answer. */
export const TEST_SEND_TIMEOUT_MS = 20_000

/** Test sends per hospital per minute (they reach real people and cost money). */
export const TEST_SENDS_PER_MINUTE = 10

export const TEST_TEXT =
  'Test message from Arogya CRM: your clinic can now reach patients on this channel.'

/**
 * Meta's Cloud API delivers free-form text only inside a 24-hour window the admin's phone has
 * rarely opened, so Test WhatsApp through Meta sends the sample template every WhatsApp
 * Business account has (hello_world, en_US), like Meta's own "send a test message".
 */
const META_TEST_TEMPLATE = {
  name: 'hello_world',
  language: 'en_US',
  variables: [],
  category: 'utility',
}

export interface TestSendOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
  urls: ProviderUrls
  channel: MessageChannel
  to: string
}

function address(channel: MessageChannel, to: string): string {
  if (channel === 'email') {
    const email = to.trim().toLowerCase()
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      throw new AppError('VALIDATION', 'Enter a valid email address', [
        { path: 'to', message: 'Enter a valid email address' },
      ])
    }
    return email
  }
  const phone = normalizePhone(to)
  if (!phone) {
    const message = 'Enter a valid phone number, e.g. 98765 43210 or +14155550123'
    throw new AppError('VALIDATION', message, [{ path: 'to', message }])
  }
  return phone
}

/** The last characters of an address, for the audit row (not the whole of it). */
const masked = (to: string) => `…${to.slice(-4)}`

/**
 * POST /api/settings/messaging/test: a real message through the hospital's configured provider
 * (the sandbox when it has none), answering with what the provider said. It writes no
 * communication: a test is to the admin's own number, not to a lead or patient, and
 * Communication History is theirs. The audit row records the channel, provider and outcome.
 */
export async function testSend(opts: TestSendOptions): Promise<TestSendResult> {
  const to = address(opts.channel, opts.to)
  const hit = await countHit(opts.db, `messaging-test:${opts.hospitalId}`, 60_000)
  if (hit.hits > TEST_SENDS_PER_MINUTE) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many test messages: at most ${TEST_SENDS_PER_MINUTE} a minute. Try again in ${Math.ceil(hit.ttlMs / 1000)} seconds.`,
    )
  }
  const config = await withTenant(opts.db, opts, (tx) => readMessagingConfig(tx, opts.hospitalId))
  const provider = providerFor(config, opts.channel, opts.urls)
  const sandbox = provider.name === 'sandbox'
  const message: OutboundMessage = {
    channel: opts.channel,
    to,
    idempotencyKey: randomUUID(),
    text: TEST_TEXT,
    ...(opts.channel === 'email' ? { subject: 'Arogya CRM test email' } : {}),
    ...(provider.name === 'meta' ? { template: META_TEST_TEMPLATE } : {}),
  }
  const result = await provider
    .send(message, AbortSignal.timeout(TEST_SEND_TIMEOUT_MS))
    .catch((): SendResult =>
      // A hospital's own SMTP server answers every failure alike (smtp-host.ts): a silent host
      // must not be told from a refused one.
      provider.name === 'smtp'
        ? {
            ok: false,
            kind: 'temporary',
            code: SMTP_UNREACHABLE_CODE,
            reason: SMTP_UNREACHABLE_MESSAGE,
          }
        : {
            ok: false,
            kind: 'temporary',
            code: 'NO_ANSWER',
            reason: `${provider.name} did not answer in time: check the settings and try again`,
          },
    )
  const answer: TestSendResult = result.ok
    ? {
        ok: true,
        provider: provider.name,
        sandbox,
        providerMessageId: result.providerMessageId,
        detail:
          result.detail ??
          (sandbox
            ? 'Sandbox: no provider is set up for this channel (or its settings are incomplete), so nothing was sent to anyone.'
            : `Accepted by ${provider.name} (${result.status}).`),
      }
    : {
        ok: false,
        provider: provider.name,
        sandbox,
        detail: `${result.reason} (${result.code})`,
      }
  await withTenant(opts.db, opts, (tx) =>
    recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'messaging.test_sent',
      entityType: 'messaging_connection',
      entityId: null,
      summary: `Test ${opts.channel} message to ${masked(to)} through ${provider.name}: ${answer.ok ? 'accepted' : 'refused'}`,
    }),
  )
  return answer
}
