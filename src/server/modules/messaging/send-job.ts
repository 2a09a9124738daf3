import type { MessageChannel, ProviderName } from '../../../shared/messaging'
import type { Env } from '../../env'
import type { MessagingConfig } from '../../integrations/messaging/config'
import type { MessageProvider } from '../../integrations/messaging/provider'
import {
  type ProviderUrls,
  providerFor,
  providerUrlsFromEnv,
} from '../../integrations/messaging/registry'
import { enqueue } from '../../jobs/queue'
import {
  type ClaimedJob,
  handlerFor,
  type JobContext,
  PublicJobError,
  registerHandler,
} from '../../jobs/registry'
import { readMessagingConfig } from '../messaging-settings/connection.service'
import { recordConsent } from './consent'
import { heldByQuietHours, nextOpening } from './quiet-hours'
import { hospitalProfile, OUTSIDE_WINDOW_MESSAGE, sendWindow } from './rules'
import {
  backToQueued,
  holdUntil,
  loadForSend,
  markSending,
  outboundMessage,
  recordOutcome,
  type SendState,
} from './send-state'
import { SEND_ATTEMPTS, SEND_JOB } from './send.service'

/**
 * The messaging.send job (issue 25): hands one queued message to its provider exactly once.
 *
 * queued → (commit) sending → provider → sent or failed. A message found already 'sending'
 * was handed over by an attempt that died before recording the answer: it is looked up at the
 * provider by its idempotency key (the communication's id), never resent blindly. Found: sent.
 * Not found: sent now. The provider cannot tell: the status callback settles it; we check again
 * later and, after the reconcile window, mark it failed without resending (staff may resend).
 * A failure that proves nothing was accepted ('temporary': unreachable, 429, 5xx) is retried
 * with backoff and jitter (Retry-After respected); an ambiguous one (the adapter threw: a hung
 * or broken connection) is retried through the look-up; any other is final, with its reason.
 */
export const SANDBOX_DELIVER_JOB = 'messaging.sandbox-deliver'

export const NOT_CONFIRMED = 'Not confirmed by the provider; not resent to avoid a duplicate'

export interface MessagingJobOptions {
  urls: ProviderUrls
  /** The app's public URL, for status callbacks (BASE_URL, else http://127.0.0.1:PORT). */
  baseUrl: string
  perHospitalPerMinute: number
  /** How long a message may stay unconfirmed 'sending' before it is marked failed. */
  reconcileWindowMs?: number
  /** How often an unconfirmed message is checked again. */
  reconcileCheckMs?: number
  /** Tests: another adapter. */
  providerFor?: (config: MessagingConfig, channel: 'whatsapp' | 'sms' | 'email') => MessageProvider
}

export function messagingJobOptionsFromEnv(
  env: Pick<Env, 'BASE_URL' | 'PORT' | 'MESSAGES_PER_HOSPITAL_PER_MINUTE'> &
    Parameters<typeof providerUrlsFromEnv>[0],
): MessagingJobOptions {
  return {
    urls: providerUrlsFromEnv(env),
    baseUrl: env.BASE_URL ?? `http://127.0.0.1:${env.PORT}`,
    perHospitalPerMinute: env.MESSAGES_PER_HOSPITAL_PER_MINUTE,
  }
}

interface SendPayload {
  id: string
  /** Attempts made by earlier jobs of this message (a Retry-After or a reconcile check). */
  retries: number
}

function payloadOf(job: ClaimedJob): SendPayload {
  const p = job.payload as { id?: unknown; retries?: unknown } | null
  if (!p || typeof p.id !== 'string') throw new PublicJobError('Bad message job')
  return { id: p.id, retries: typeof p.retries === 'number' ? p.retries : 0 }
}

/** Another job of the same message, later (its own dedupe key: each is a new step). */
async function later(
  ctx: JobContext,
  job: ClaimedJob,
  p: SendPayload,
  delayMs: number,
  counts = true,
) {
  const retries = counts ? p.retries + job.attempts : p.retries
  await ctx.withTenant((tx) =>
    enqueue(tx, {
      name: SEND_JOB,
      hospitalId: job.hospitalId,
      payload: { id: p.id, retries },
      runAt: new Date(Date.now() + delayMs),
      maxAttempts: Math.max(1, SEND_ATTEMPTS - retries),
    }),
  )
}

export async function sendJob(job: ClaimedJob, ctx: JobContext, o: MessagingJobOptions) {
  const p = payloadOf(job)
  if (!job.hospitalId) throw new PublicJobError('A message job without a hospital')
  const hospitalId = job.hospitalId
  const profile = await hospitalProfile(ctx.db, hospitalId)
  const loaded = await ctx.withTenant(async (tx) => {
    const state = await loadForSend(tx, p.id)
    if (!state || !(state.row.status === 'queued' || state.row.status === 'sending')) {
      return { state, config: null, opening: null }
    }
    const held = heldByQuietHours(state.row.type as MessageChannel, state.template?.category)
    // Quiet hours again, in the hospital's own zone, at the moment of sending.
    const opening =
      state.row.status === 'queued' && held
        ? nextOpening(new Date(), await sendWindow(tx, profile.timeZone))
        : null
    if (opening) {
      await holdUntil(tx, state.row, opening)
      return { state, config: null, opening }
    }
    return { state, config: await readMessagingConfig(tx, hospitalId), opening: null }
  })
  if (loaded.opening) {
    await later(ctx, job, p, loaded.opening.getTime() - Date.now(), false)
    return { status: 'queued', heldUntil: loaded.opening.toISOString() }
  }
  if (!loaded.state || !loaded.config) return { status: loaded.state?.row.status ?? 'missing' }
  const { state, config } = loaded
  const { row } = state
  const channel = row.type as 'whatsapp' | 'sms' | 'email'
  const provider = o.providerFor
    ? o.providerFor(config, channel)
    : providerFor(config, channel, o.urls)
  const message = outboundMessage(state, {
    hospitalName: profile.name,
    statusCallbackUrl: `${o.baseUrl}/api/webhooks/twilio/${hospitalId}/status?c=${row.id}`,
  })
  if (row.status === 'sending') {
    const since = row.statusChangedAt ?? row.createdAt
    const found = await provider.lookup(
      { idempotencyKey: row.id, to: message.to, since, text: message.text },
      ctx.signal,
    )
    if (found.found === true) {
      await ctx.withTenant((tx) =>
        recordOutcome(tx, row, {
          status: found.status,
          providerMessageId: found.providerMessageId,
        }),
      )
      return { status: found.status, reconciled: true }
    }
    if (found.found === 'unknown') {
      if (Date.now() - since.getTime() >= (o.reconcileWindowMs ?? 30 * 60_000)) {
        await ctx.withTenant((tx) =>
          recordOutcome(tx, row, {
            status: 'failed',
            failureCode: 'UNCONFIRMED',
            failureReason: NOT_CONFIRMED,
          }),
        )
        return { status: 'failed', reconciled: false }
      }
      await later(ctx, job, p, o.reconcileCheckMs ?? 60_000)
      return { status: 'sending', waiting: true }
    }
    // Not at the provider: the earlier attempt never got there; send it now.
  } else {
    const at = await ctx.withTenant((tx) =>
      markSending(tx, row, { name: provider.name as ProviderName }),
    )
    if (!at) return { status: 'moved' }
    row.statusChangedAt = at
  }
  return deliver(job, ctx, o, p, { state, provider, message })
}

async function deliver(
  job: ClaimedJob,
  ctx: JobContext,
  o: MessagingJobOptions,
  p: SendPayload,
  s: { state: SendState; provider: MessageProvider; message: ReturnType<typeof outboundMessage> },
) {
  const { row } = s.state
  const last = p.retries + job.attempts >= SEND_ATTEMPTS || job.attempts >= job.maxAttempts
  let result
  try {
    result = await s.provider.send(s.message, ctx.signal)
  } catch (error) {
    // Ambiguous (the provider may have it): the next attempt looks it up first.
    if (!last) throw error
    await later(ctx, job, p, o.reconcileCheckMs ?? 60_000)
    return { status: 'sending', waiting: true }
  }
  if (result.ok) {
    await ctx.withTenant(async (tx) => {
      await recordOutcome(tx, row, {
        status: result.status,
        providerMessageId: result.providerMessageId,
      })
      if (s.provider.name === 'sandbox' && result.status === 'sent') {
        if (o.urls.sandboxDeliveryMs <= 0) await recordOutcome(tx, row, { status: 'delivered' })
        else
          await enqueue(tx, {
            name: SANDBOX_DELIVER_JOB,
            hospitalId: job.hospitalId,
            payload: { id: row.id },
            runAt: new Date(Date.now() + o.urls.sandboxDeliveryMs),
          })
      }
    })
    return { status: result.status }
  }
  if (result.kind === 'temporary' && !last) {
    await ctx.withTenant((tx) => backToQueued(tx, row))
    if (result.retryAfterMs && result.retryAfterMs > 0) {
      await later(ctx, job, p, Math.round(result.retryAfterMs * (1 + Math.random() * 0.2)))
      return { status: 'queued', retryAfterMs: result.retryAfterMs }
    }
    throw new PublicJobError(
      `The provider could not take the message now (${result.code}); retrying`,
    )
  }
  // A temporary failure on the last attempt is final: its "will be retried" text is not.
  const reason =
    result.kind === 'outside_window'
      ? OUTSIDE_WINDOW_MESSAGE
      : result.kind === 'temporary'
        ? NOT_SENT
        : result.reason
  await ctx.withTenant(async (tx) => {
    await recordOutcome(tx, row, {
      status: 'failed',
      failureCode: result.code,
      failureReason: reason,
    })
    if (result.kind === 'opted_out' && job.hospitalId && row.contactAddress) {
      await recordConsent(tx, {
        hospitalId: job.hospitalId,
        channel: s.message.channel,
        contactAddress: row.contactAddress,
        action: 'opt_out',
        method: 'provider',
        communicationId: row.id,
      })
    }
  })
  return { status: 'failed', kind: result.kind }
}

async function sandboxDeliverJob(job: ClaimedJob, ctx: JobContext) {
  const { id } = payloadOf(job)
  await ctx.withTenant(async (tx) => {
    const state = await loadForSend(tx, id)
    if (state) await recordOutcome(tx, state.row, { status: 'delivered' })
  })
}

export const NOT_SENT = 'Could not be sent: the provider could not be reached after several tries'

/**
 * The send job ran out of attempts (its last one failed, or its worker died): a message it left
 * queued was never accepted and fails as not sent; one left sending may have been accepted, so it
 * fails as not confirmed, never resent. Either way no row stays queued or sending for ever.
 */
async function settleUnsent(job: ClaimedJob, ctx: JobContext): Promise<void> {
  const { id } = payloadOf(job)
  await ctx.withTenant(async (tx) => {
    const state = await loadForSend(tx, id)
    if (!state) return
    const { row } = state
    if (row.status !== 'queued' && row.status !== 'sending') return
    const sending = row.status === 'sending'
    await recordOutcome(tx, row, {
      status: 'failed',
      failureCode: sending ? 'not_confirmed' : 'not_sent',
      failureReason: sending ? NOT_CONFIRMED : NOT_SENT,
    })
  })
}

/** Registers both jobs once per process (a second call is a no-op); returns their removal. */
export function registerMessagingJobs(o: MessagingJobOptions): () => void {
  if (handlerFor(SEND_JOB)) return () => undefined
  const removeSend = registerHandler(SEND_JOB, (job, ctx) => sendJob(job, ctx, o), {
    perHospitalPerMinute: o.perHospitalPerMinute,
    onDead: settleUnsent,
  })
  const removeDeliver = registerHandler(SANDBOX_DELIVER_JOB, sandboxDeliverJob)
  return () => {
    removeSend()
    removeDeliver()
  }
}
