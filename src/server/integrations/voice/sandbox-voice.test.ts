import { describe, expect, it } from 'vitest'
import { sandboxOutcome, sandboxVoice } from './sandbox-voice'
import { VoiceProviderError, type StartCallInput } from './voice-provider'

const STAFF = '+919812345670'
const input = (customerPhone: string): StartCallInput => ({
  staffPhone: STAFF,
  customerPhone,
  callerId: '+918047112233',
  record: false,
})

/** A sandbox on a clock the test moves: 5 s of ringing, 10 ms per simulated second. */
function clocked() {
  let now = Date.UTC(2026, 11, 2, 5, 0, 0)
  const provider = sandboxVoice({ now: () => now, ringMs: 5_000, secondMs: 10 })
  return {
    provider,
    advance: (ms: number) => {
      now += ms
    },
    at: () => now,
  }
}

describe('sandbox voice outcomes', () => {
  it.each([
    ['+919876543210', 'completed'],
    ['+919876543216', 'completed'],
    ['+919876543217', 'no-answer'],
    ['+919876543218', 'no-answer'],
    ['+919876543219', 'busy'],
  ] as const)('%s: %s, by its last digit', (number, status) => {
    expect(sandboxOutcome(number).status).toBe(status)
  })

  it('answered calls last 45–255 s, the same for the same number every time', () => {
    const a = sandboxOutcome('+919876543210')
    expect(a).toEqual(sandboxOutcome('+919876543210'))
    // digits 919876543210 sum to 55: 45 + (55 × 7) mod 211 = 45 + 174.
    expect(a.durationSeconds).toBe(219)
    for (let i = 0; i < 7; i++) {
      const d = sandboxOutcome(`+9198765${String(i).repeat(5)}`).durationSeconds
      expect(d).toBeGreaterThanOrEqual(45)
      expect(d).toBeLessThanOrEqual(255)
    }
  })
})

describe('sandbox voice calls', () => {
  it('an answered call rings, is in progress with a running duration, then completes', async () => {
    const { provider, advance, at } = clocked()
    const started = at()
    const { providerCallId, status } = await provider.startCall(input('+919876543210'))
    expect(status).toBe('queued')
    expect(providerCallId).toMatch(/^sbxcall_/)
    expect(await provider.fetchCall(providerCallId)).toMatchObject({
      status: 'ringing',
      durationSeconds: 0,
      endedAt: null,
      direction: 'outbound',
    })
    advance(5_000 + 30 * 10)
    expect(await provider.fetchCall(providerCallId)).toMatchObject({
      status: 'in-progress',
      durationSeconds: 30,
    })
    advance(219 * 10)
    const done = await provider.fetchCall(providerCallId)
    expect(done).toMatchObject({ status: 'completed', durationSeconds: 219 })
    expect(done.startedAt?.getTime()).toBe(started)
    expect(done.endedAt?.getTime()).toBe(started + 5_000 + 2_190)
    expect(done.recordingUrl).toBeUndefined()
  })

  it('an unanswered call rings out after 30 s; a busy one ends after 3 s', async () => {
    const { provider, advance } = clocked()
    const missed = await provider.startCall(input('+919876543217'))
    const busy = await provider.startCall(input('+919876543219'))
    advance(2_999)
    expect((await provider.fetchCall(busy.providerCallId)).status).toBe('ringing')
    advance(1)
    expect(await provider.fetchCall(busy.providerCallId)).toMatchObject({
      status: 'busy',
      durationSeconds: 0,
    })
    expect((await provider.fetchCall(missed.providerCallId)).status).toBe('ringing')
    advance(27_000)
    expect(await provider.fetchCall(missed.providerCallId)).toMatchObject({
      status: 'no-answer',
      durationSeconds: 0,
    })
  })

  it('any instance answers the same for an id (no state kept)', async () => {
    const { provider, advance, at } = clocked()
    const { providerCallId } = await provider.startCall(input('+919876543219'))
    advance(10_000)
    const other = sandboxVoice({ now: at })
    expect((await other.fetchCall(providerCallId)).status).toBe('busy')
  })

  it('each call gets its own id', async () => {
    const { provider } = clocked()
    const a = await provider.startCall(input('+919876543210'))
    const b = await provider.startCall(input('+919876543210'))
    expect(a.providerCallId).not.toBe(b.providerCallId)
  })

  it('refuses invalid numbers with invalid-number, naming whose', async () => {
    const { provider } = clocked()
    const customer = await provider.startCall(input('98765')).catch((e: unknown) => e)
    expect(customer).toBeInstanceOf(VoiceProviderError)
    expect(customer).toMatchObject({ kind: 'invalid-number' })
    expect((customer as VoiceProviderError).reason).toContain('contact’s phone number')
    const staff = await provider
      .startCall({ ...input('+919876543210'), staffPhone: 'me' })
      .catch((e: unknown) => e)
    expect((staff as VoiceProviderError).reason).toContain('your profile')
  })

  it('an id it never made: other', async () => {
    const { provider } = clocked()
    const e = await provider.fetchCall('CA0123').catch((error: unknown) => error)
    expect(e).toMatchObject({ kind: 'other', code: 'NOT_FOUND' })
  })
})
