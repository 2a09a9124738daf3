import { z } from 'zod'
import {
  callDirections,
  callDispositions,
  callOutcomes,
  callStatuses,
  voiceProviders,
} from '../calls'
import { MOBILE_PHONE_MESSAGE, normalizeMobilePhone } from '../phone'
import { isoDate, optionalText, phoneNumber } from './common'

/*
 * Voice calls (issue 41). Staff with calls:make (admin, doctor, nurse, receptionist):
 *   POST /api/calls                    {leadId} | {patientId}  201 Call (status queued)
 *   GET  /api/calls/:id                Call (404 for another hospital's)
 *   GET  /api/calls?leadId=&patientId=&from=&to=   {calls: Call[]} newest first (at most 200)
 *   POST /api/calls/:id/disposition    {disposition, note?, callBackAt?}  Call
 *   PUT  /api/calls/my-phone           {phone}  {phone, verified: true} after a placed test call
 * Live state is pushed as `call` events on GET /api/events/messages (a CallEvent).
 */

const uuid = z.uuid({ message: 'Must be a valid id' })

export const startCallInput = z
  .strictObject({ leadId: uuid.optional(), patientId: uuid.optional() })
  .refine((v) => (v.leadId === undefined) !== (v.patientId === undefined), {
    message: 'Give either leadId or patientId',
    path: ['leadId'],
  })
export type StartCallInput = z.infer<typeof startCallInput>

/** A moment given as ISO 8601 with its offset ('2026-12-03T11:00:00+05:30'). */
const instant = z.iso
  .datetime({ offset: true, message: 'Must be a date and time (ISO 8601 with offset)' })
  .transform((v) => new Date(v))

export const listCallsQuery = z.strictObject({
  leadId: uuid.optional(),
  patientId: uuid.optional(),
  /** Calls created on or after this day (YYYY-MM-DD, the hospital's zone) or this instant. */
  from: z.union([isoDate, z.iso.datetime({ offset: true })]).optional(),
  to: z.union([isoDate, z.iso.datetime({ offset: true })]).optional(),
})
export type ListCallsQuery = z.infer<typeof listCallsQuery>

export const dispositionInput = z
  .strictObject({
    disposition: z.enum(callDispositions, { message: 'Choose how the call went' }),
    note: optionalText(2000),
    callBackAt: instant.nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.disposition === 'call_back' && !v.callBackAt) {
      ctx.addIssue({ code: 'custom', path: ['callBackAt'], message: 'Choose when to call back' })
    }
    if (v.disposition !== 'call_back' && v.callBackAt) {
      ctx.addIssue({
        code: 'custom',
        path: ['callBackAt'],
        message: 'A call-back time goes only with "call back"',
      })
    }
  })
export type DispositionInput = z.infer<typeof dispositionInput>

export const myPhoneInput = z.strictObject({
  phone: phoneNumber(normalizeMobilePhone, {
    required: 'Your mobile number is required',
    invalid: MOBILE_PHONE_MESSAGE,
  }),
})

export const call = z.object({
  id: z.string(),
  leadId: z.string().nullable(),
  patientId: z.string().nullable(),
  userId: z.string(),
  direction: z.enum(callDirections),
  provider: z.enum(voiceProviders),
  /** Shown as "Sandbox" when the hospital has no voice provider. */
  sandbox: z.boolean(),
  status: z.enum(callStatuses),
  failureReason: z.string().nullable(),
  startedAt: z.string(),
  answeredAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  outcome: z.enum(callOutcomes).nullable(),
  disposition: z.enum(callDispositions).nullable(),
  dispositionNote: z.string().nullable(),
  callBackAt: z.string().nullable(),
  /** A recording is in storage (GET /api/calls/:id/recording, calls:recordings only). */
  hasRecording: z.boolean(),
  /** Why a recorded call has no recording (storage full, too large, none at the provider). */
  recordingNote: z.string().nullable(),
  createdAt: z.string(),
})
export type Call = z.infer<typeof call>

export const callsResponse = z.object({ calls: z.array(call) })

/** The `call` server-sent event: a call's new state (no phone numbers). */
export const callEvent = z.object({
  id: z.string(),
  userId: z.string(),
  leadId: z.string().nullable(),
  patientId: z.string().nullable(),
  status: z.enum(callStatuses),
  durationSeconds: z.number().nullable(),
  failureReason: z.string().nullable(),
})
export type CallEvent = z.infer<typeof callEvent>
