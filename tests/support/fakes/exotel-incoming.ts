import { randomBytes } from 'node:crypto'
import type { FakeExotel, FakeExotelCall } from './exotel'

/**
 * Incoming calls on the fake Exotel (issue 41; contracts/exotel/README.md "Incoming calls"): a
 * caller dials the account's ExoPhone, so Exotel holds a call (its details answer for it) and
 * its flow's Connect applet asks our URL whom to dial (a GET with CallSid, CallFrom, CallTo,
 * Direction=incoming). After the applet, a Passthru applet may hit the URL again with the
 * CallType (completed, incomplete, client-hangup) and DialCallDuration.
 */

export function incomingExotelCall(
  fake: FakeExotel,
  input: { accountSid: string; from: string; exophone: string },
): FakeExotelCall {
  const call: FakeExotelCall = {
    sid: randomBytes(16).toString('hex'),
    accountSid: input.accountSid,
    from: input.from,
    to: input.exophone,
    callerId: input.exophone,
    status: 'in-progress',
    leg1Status: null,
    leg2Status: null,
    conversationSeconds: 0,
    params: {},
    statusCallback: null,
    events: [],
    json: false,
    createdAt: new Date(),
    endedAt: null,
    recordingUrl: null,
  }
  fake.calls.push(call)
  return call
}

/** Ends the incoming call at Exotel: answered for `seconds`, or missed (no-answer). */
export function endIncoming(call: FakeExotelCall, outcome: { answered: number } | 'missed') {
  const answered = typeof outcome === 'object'
  call.status = answered ? 'completed' : 'no-answer'
  call.leg1Status = call.status
  call.conversationSeconds = answered ? outcome.answered : 0
  call.endedAt = new Date(call.createdAt.getTime() + 15_000 + call.conversationSeconds * 1000)
}

/** The Connect applet's (or a Passthru's) query for this call, as Exotel sends it. */
export function connectQuery(
  call: FakeExotelCall,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    CallSid: call.sid,
    // Exotel writes Indian callers with a leading 0 and no country code.
    CallFrom: call.from.replace(/^\+91/, '0'),
    CallTo: call.to.replace(/^\+91/, '0'),
    Direction: 'incoming',
    Created: 'Thu, 03 Dec 2026 12:00:00',
    ...extra,
  }
}
