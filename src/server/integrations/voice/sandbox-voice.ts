import { randomBytes } from 'node:crypto'
import {
  VoiceProviderError,
  type CallDetails,
  type CallStatus,
  type VoiceProvider,
} from './voice-provider'

/**
 * The sandbox "provider" (issue 41): a hospital without a voice provider. Nothing leaves the
 * building; calls go through the same states as real ones, with outcomes chosen from the
 * customer number's last digit so tests and the demo are predictable:
 *
 *   0–6 answered, talking 45–255 s (from the number's digits) · 7–8 no answer · 9 busy
 *
 * The call id carries when the call started and its outcome, so fetchCall() answers from the id
 * and the clock alone: no state, and any instance answers the same. A call rings for `ringMs`,
 * then is in progress for its duration (each simulated second lasting `secondMs`) and completes;
 * an unanswered one rings out after `ringOutMs`, a busy one ends after `busyMs`. The sandbox
 * keeps no phone numbers (the id carries none), so fetchCall's from and to are empty: the calls
 * module has its own record of them.
 */

export type SandboxOutcome =
  | { status: 'completed'; durationSeconds: number }
  | { status: 'no-answer' | 'busy'; durationSeconds: 0 }

const E164 = /^\+[1-9]\d{6,14}$/

/** What the sandbox does with a call to `customerPhone`. */
export function sandboxOutcome(customerPhone: string): SandboxOutcome {
  const digits = customerPhone.replace(/\D/g, '')
  const last = Number(digits.at(-1) ?? '0')
  if (last === 9) return { status: 'busy', durationSeconds: 0 }
  if (last >= 7) return { status: 'no-answer', durationSeconds: 0 }
  const sum = [...digits].reduce((total, d) => total + Number(d), 0)
  return { status: 'completed', durationSeconds: 45 + ((sum * 7) % 211) }
}

export interface SandboxVoiceOptions {
  now?: () => number
  /** How long the phones ring before the customer answers (default 5 s). */
  ringMs?: number
  /** How long an unanswered call rings before it gives up (default 30 s). */
  ringOutMs?: number
  /** How long a busy call takes to end (default 3 s). */
  busyMs?: number
  /** How long one simulated second of conversation lasts (default 1000 ms; tests shorten it). */
  secondMs?: number
}

const CODES = { completed: 'a', 'no-answer': 'n', busy: 'b' } as const

/** sbxcall_<start ms, base 36>_<a|n|b><seconds>_<random>: the call's whole story. */
function idFor(startedMs: number, outcome: SandboxOutcome): string {
  const random = randomBytes(6).toString('hex')
  return `sbxcall_${startedMs.toString(36)}_${CODES[outcome.status]}${outcome.durationSeconds}_${random}`
}

function parseId(id: string): { startedMs: number; outcome: SandboxOutcome } | null {
  const m = /^sbxcall_([0-9a-z]{1,12})_([anb])(\d{1,5})_[0-9a-f]{12}$/.exec(id)
  if (!m?.[1] || !m[2] || !m[3]) return null
  const startedMs = parseInt(m[1], 36)
  const durationSeconds = Number(m[3])
  if (m[2] === 'a') return { startedMs, outcome: { status: 'completed', durationSeconds } }
  return { startedMs, outcome: { status: m[2] === 'n' ? 'no-answer' : 'busy', durationSeconds: 0 } }
}

export function sandboxVoice(options: SandboxVoiceOptions = {}): VoiceProvider {
  const now = options.now ?? Date.now
  const ringMs = options.ringMs ?? 5_000
  const ringOutMs = options.ringOutMs ?? 30_000
  const busyMs = options.busyMs ?? 3_000
  const secondMs = options.secondMs ?? 1_000

  return {
    name: 'sandbox',
    async startCall(input, signal) {
      signal?.throwIfAborted()
      if (!E164.test(input.staffPhone))
        throw invalid('Your own phone number is not valid: check the number in your profile.')
      if (!E164.test(input.customerPhone))
        throw invalid('This contact’s phone number is not valid: check that it is right.')
      return { providerCallId: idFor(now(), sandboxOutcome(input.customerPhone)), status: 'queued' }
    },

    async fetchCall(providerCallId, signal) {
      signal?.throwIfAborted()
      const parsed = parseId(providerCallId)
      if (!parsed) {
        throw new VoiceProviderError({
          kind: 'other',
          code: 'NOT_FOUND',
          reason: 'The sandbox has no record of this call.',
        })
      }
      const { startedMs, outcome } = parsed
      const elapsed = now() - startedMs
      const at = (ms: number) => new Date(startedMs + ms)
      const base: Omit<CallDetails, 'status' | 'durationSeconds' | 'endedAt'> = {
        providerCallId,
        startedAt: at(0),
        direction: 'outbound',
        from: '',
        to: '',
      }
      const state = (status: CallStatus, durationSeconds: number, endedMs: number | null) => ({
        ...base,
        status,
        durationSeconds,
        endedAt: endedMs === null ? null : at(endedMs),
      })
      if (outcome.status === 'busy') {
        return elapsed < busyMs ? state('ringing', 0, null) : state('busy', 0, busyMs)
      }
      if (outcome.status === 'no-answer') {
        return elapsed < ringOutMs ? state('ringing', 0, null) : state('no-answer', 0, ringOutMs)
      }
      if (elapsed < ringMs) return state('ringing', 0, null)
      const talkMs = outcome.durationSeconds * secondMs
      if (elapsed < ringMs + talkMs) {
        return state('in-progress', Math.floor((elapsed - ringMs) / secondMs), null)
      }
      return state('completed', outcome.durationSeconds, ringMs + talkMs)
    },
  }
}

const invalid = (reason: string) =>
  new VoiceProviderError({ kind: 'invalid-number', code: 'INVALID_NUMBER', reason })
