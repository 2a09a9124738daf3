/**
 * Voice calls' shared vocabulary (issue 41): what client and server both name. The statuses are
 * the voice adapters' CALL_STATUSES (src/server/integrations/voice/voice-provider.ts; a test
 * keeps the two equal), in the order a call moves through them.
 */
export const callStatuses = [
  'queued',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
] as const
export type CallStatusName = (typeof callStatuses)[number]

/** A call in one of these still rings or talks: one per staff member at a time. */
export const liveCallStatuses = ['queued', 'ringing', 'in-progress'] as const

export const callDirections = ['outbound', 'inbound'] as const
export const voiceProviders = ['sandbox', 'exotel', 'twilio'] as const
export type VoiceProviderKind = (typeof voiceProviders)[number]

/** How an ended call went, for reports: a completed call was answered. */
export const callOutcomes = ['answered', 'no-answer', 'busy', 'failed', 'canceled'] as const
export type CallOutcome = (typeof callOutcomes)[number]

/** What the staff member picks when a call ends ("call back at…" needs a time). */
export const callDispositions = [
  'interested',
  'call_back',
  'not_reachable',
  'wrong_number',
  'booked',
  'not_interested',
] as const
export type CallDisposition = (typeof callDispositions)[number]

/** Calling hours when the hospital has set none, in its own time zone. */
export const DEFAULT_CALLING_HOURS = { start: '09:00', end: '21:00' } as const
