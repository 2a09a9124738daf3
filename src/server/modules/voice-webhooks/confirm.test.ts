import { describe, expect, it } from 'vitest'
import {
  type CallDetails,
  type CallStatus,
  VoiceProviderError,
} from '../../integrations/voice/voice-provider'
import { statusCallbackUrl } from './callback-urls'
import { decide, PROVIDER_FAILED, unknownToProvider } from './confirm'

const now = new Date('2026-12-02T10:00:00Z')
const details = (status: CallStatus, extra: Partial<CallDetails> = {}): CallDetails => ({
  providerCallId: 'sid1',
  status,
  durationSeconds: 0,
  startedAt: null,
  endedAt: null,
  direction: 'outbound',
  from: '',
  to: '',
  ...extra,
})

describe('decide: the provider’s details, not the callback, say what happened', () => {
  it('applies a final state as the details tell it, whatever the callback said', () => {
    const ended = new Date('2026-12-02T09:59:00Z')
    expect(decide('completed', details('busy', { durationSeconds: 9 }), now)).toEqual({
      pending: false,
      change: { status: 'busy', at: now, durationSeconds: 0, failureReason: null },
    })
    const done = decide(
      'ringing',
      details('completed', { durationSeconds: 80, endedAt: ended }),
      now,
    )
    expect(done.change).toMatchObject({ status: 'completed', durationSeconds: 80, at: ended })
    expect(decide(null, details('failed'), now).change?.failureReason).toBe(PROVIDER_FAILED)
  })

  it('never dates an ending in the future', () => {
    const later = new Date(now.getTime() + 60_000)
    expect(decide(null, details('no-answer', { endedAt: later }), now).change?.at).toBe(now)
  })

  it('confirms answered only when the details say in progress too', () => {
    expect(decide('in-progress', details('in-progress'), now).change?.status).toBe('in-progress')
    expect(decide('in-progress', details('queued'), now).change?.status).toBe('ringing')
    expect(decide('ringing', details('in-progress'), now).change?.status).toBe('ringing')
  })

  it('holds an ending the details do not confirm yet', () => {
    expect(decide('completed', details('in-progress'), now)).toEqual({
      pending: true,
      change: null,
    })
    expect(decide(null, details('ringing'), now)).toEqual({ pending: false, change: null })
  })
})

describe('unknownToProvider', () => {
  const error = (code: string) => new VoiceProviderError({ kind: 'other', code, reason: 'x' })
  it('knows the providers’ "no such call"', () => {
    for (const code of ['HTTP 404', '404/20', '20404', 'NOT_FOUND'])
      expect(unknownToProvider(error(code))).toBe(true)
    for (const code of ['HTTP 500', '401/1', 'TIMEOUT'])
      expect(unknownToProvider(error(code))).toBe(false)
    expect(unknownToProvider(new Error('HTTP 404'))).toBe(false)
  })
})

describe('statusCallbackUrl', () => {
  const input = { hospitalId: 'h1', callbackToken: 'tok en', publicBase: 'https://crm.example.in/' }
  it('puts the token in Exotel’s query, names only the hospital for Twilio, nothing for the sandbox', () => {
    expect(statusCallbackUrl({ ...input, kind: 'exotel' })).toBe(
      'https://crm.example.in/api/webhooks/exotel/h1/status?t=tok%20en',
    )
    expect(statusCallbackUrl({ ...input, kind: 'twilio' })).toBe(
      'https://crm.example.in/api/webhooks/twilio/h1/voice',
    )
    expect(statusCallbackUrl({ ...input, kind: 'sandbox' })).toBeUndefined()
    expect(statusCallbackUrl({ ...input, kind: 'exotel', callbackToken: null })).toBeUndefined()
    expect(statusCallbackUrl({ ...input, kind: 'twilio', publicBase: undefined })).toBeUndefined()
  })
})
