import {
  VOICE_TEST_CALLS_PER_MINUTE,
  type VoiceTestCallResult,
} from '../../../shared/schemas/voice-settings'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { countHit } from '../../http/rate-limit-store'
import { sandboxOutcome } from '../../integrations/voice/sandbox-voice'
import { VoiceProviderError } from '../../integrations/voice/voice-provider'
import { recordAudit } from '../audit/audit.service'
import { hospitalVoice, readVoiceSettings, type VoiceOptions } from '../calls/voice-registry'

/**
 * POST /api/settings/voice/test-call (admins, issue 41): rings the number the admin typed
 * through the hospital's voice provider as saved (the sandbox without one), like the check of
 * a staff member's own phone (calls/staff-phone.service.ts): the provider dials the number and
 * connects it to itself, for a minute at most, never recorded. It writes no call and no
 * Communication (the number is the admin's, not a contact's); the audit row keeps the last
 * digits and the outcome. A refusal is a 400 on `phone` for a number the provider will not
 * call, else a 502 (UPSTREAM) with the provider's reason in plain words.
 */

export interface TestCallOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
  voice: VoiceOptions
  /** E.164 (voiceTestCallInput). */
  phone: string
}

const LABELS = { sandbox: 'the sandbox', exotel: 'Exotel', twilio: 'Twilio' } as const

/** The last digits of a number, for the audit row (not the whole of it). */
const masked = (phone: string) => `…${phone.slice(-4)}`

/** What the sandbox would do with a call to this number, in words. */
function sandboxDetail(phone: string): string {
  const outcome = sandboxOutcome(phone)
  const what =
    outcome.status === 'completed'
      ? `answered, talking ${Math.floor(outcome.durationSeconds / 60)} min ${outcome.durationSeconds % 60} s`
      : outcome.status === 'busy'
        ? 'busy'
        : 'not answered'
  return `Sandbox: no voice provider is set up (or its settings are incomplete), so no phone rang. In the sandbox a call to this number is ${what}: numbers ending 0–6 answer, 7–8 ring out, 9 is busy.`
}

async function audit(opts: TestCallOptions, provider: string, outcome: string): Promise<void> {
  await withTenant(opts.db, opts, (tx) =>
    recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'voice.test_call',
      entityType: 'voice_settings',
      entityId: null,
      summary: `Test call to ${masked(opts.phone)} through ${provider}: ${outcome}`,
    }),
  )
}

export async function voiceTestCall(opts: TestCallOptions): Promise<VoiceTestCallResult> {
  const hit = await countHit(opts.db, `voice-test-call:${opts.hospitalId}`, 60_000)
  if (hit.hits > VOICE_TEST_CALLS_PER_MINUTE) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many test calls: at most ${VOICE_TEST_CALLS_PER_MINUTE} a minute. Try again in ${Math.ceil(hit.ttlMs / 1000)} seconds.`,
    )
  }
  const voice = await withTenant(opts.db, opts, async (tx) =>
    hospitalVoice(await readVoiceSettings(tx), opts.hospitalId, opts.voice),
  )
  const name = LABELS[voice.kind]
  let providerCallId: string
  try {
    const started = await voice.provider.startCall({
      staffPhone: opts.phone,
      customerPhone: opts.phone,
      callerId: voice.callerId,
      record: false,
      timeLimitSeconds: 60,
      reference: 'settings-test-call',
    })
    providerCallId = started.providerCallId
  } catch (error) {
    if (!(error instanceof VoiceProviderError)) throw error
    await audit(opts, voice.kind, `refused (${error.code})`)
    if (error.kind === 'invalid-number') {
      const message = /Do Not Disturb/.test(error.reason)
        ? error.reason
        : `${name} will not call this number: check that it is a mobile number that takes calls.`
      throw new AppError('VALIDATION', message, [{ path: 'phone', message }])
    }
    throw new AppError('UPSTREAM', error.reason)
  }
  await audit(opts, voice.kind, 'placed')
  const sandbox = voice.kind === 'sandbox'
  return {
    ok: true,
    provider: voice.kind,
    sandbox,
    providerCallId,
    detail: sandbox
      ? sandboxDetail(opts.phone)
      : `${name} accepted the call: the phone should ring within a few seconds, showing ${voice.callerId}.`,
  }
}
