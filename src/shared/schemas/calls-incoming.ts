import { z } from 'zod'
import { callStatuses } from '../calls'
import { MOBILE_PHONE_MESSAGE, normalizeMobilePhone } from '../phone'
import { phoneNumber } from './common'

/*
 * Incoming and missed calls (issue 41; server: src/server/modules/calls-incoming/):
 *   POST /api/calls/sandbox/incoming  {phone?, outcome?}  201 IncomingCallCard   admin, receptionist;
 *                                     409 when the hospital has a real voice provider
 *   GET  /api/calls/incoming/:id      IncomingCallCard (404 for another hospital's or an outbound call)
 *   GET  /api/calls/ring-group        RingGroup        (leads:read)
 *   PUT  /api/calls/ring-group        {userIds}  RingGroup   (hospital:manage)
 * Providers' webhooks: GET|POST /api/webhooks/exotel/<hospital id>/incoming?t=<callback token>
 * (the ExoPhone flow's Connect applet URL) and POST /api/webhooks/twilio/<hospital id>/voice/incoming.
 * Each incoming call is announced as an `incoming_call` event on GET /api/events/messages
 * (ids and the ring group only; the card is read with GET /api/calls/incoming/:id).
 */

export const sandboxIncomingInput = z.strictObject({
  phone: phoneNumber(normalizeMobilePhone, {
    required: 'Enter the number that calls',
    invalid: MOBILE_PHONE_MESSAGE,
  }).optional(),
  /** How the simulated call ends; default: by the number's last digit, as outgoing sandbox calls. */
  outcome: z.enum(['answered', 'missed'], { message: 'Choose answered or missed' }).optional(),
})
export type SandboxIncomingInput = z.input<typeof sandboxIncomingInput>

export const ringGroupInput = z.strictObject({
  userIds: z
    .array(z.string().trim().min(1).max(100), { message: 'Choose the staff to ring' })
    .max(20, { message: 'At most 20 staff can be rung at once' }),
})

export const ringGroupMember = z.object({
  userId: z.string(),
  name: z.string(),
  role: z.string(),
  /** Whether the member has a verified phone (only those phones actually ring). */
  phoneVerified: z.boolean(),
})

export const ringGroup = z.object({
  /** As set in Settings; empty means the default. */
  configured: z.array(z.string()),
  /** Who rings now, in order: the configured staff, or the default (see ring-group.ts). */
  members: z.array(ringGroupMember),
})
export type RingGroup = z.infer<typeof ringGroup>

/** The `incoming_call` server-sent event: a call came in (no number, no name). */
export const incomingCallEvent = z.object({
  id: z.string(),
  /** The staff whose screens pop up: the ring group. */
  ringUserIds: z.array(z.string()),
  leadId: z.string().nullable(),
  patientId: z.string().nullable(),
  status: z.enum(callStatuses),
})
export type IncomingCallEvent = z.infer<typeof incomingCallEvent>

/** What the pop-up shows: "Sunita Kulkarni, patient SMH-000123, next appointment 3 Dec". */
export const incomingCallCard = z.object({
  id: z.string(),
  status: z.enum(callStatuses),
  startedAt: z.string(),
  name: z.string(),
  /** The caller's number, formatted for reading (staff may call back). */
  phone: z.string(),
  leadId: z.string().nullable(),
  patientId: z.string().nullable(),
  patientNumber: z.string().nullable(),
  /** A lead this very call created (an unknown number). */
  newLead: z.boolean(),
  nextAppointmentAt: z.string().nullable(),
  ringUserIds: z.array(z.string()),
  sandbox: z.boolean(),
})
export type IncomingCallCard = z.infer<typeof incomingCallCard>
