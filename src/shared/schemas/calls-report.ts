import { z } from 'zod'
import { callDispositions, callOutcomes } from '../calls'
import { isoDate } from './common'

/*
 * The calls report (issue 41): GET /api/calls/report?from=&to= (JSON) and
 * GET /api/calls/report.csv?from=&to= (one row per day and staff member). Days are the
 * hospital's (its time zone); both ends are included; the default is the last 7 days up to
 * today; at most 366 days. Admins only (live-monitoring:read_all: it shows every member).
 */

/** The longest range a report covers, in days. */
export const CALLS_REPORT_MAX_DAYS = 366

export const callsReportQuery = z
  .strictObject({ from: isoDate.optional(), to: isoDate.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'The start date must be on or before the end date',
    path: ['from'],
  })
export type CallsReportQuery = z.infer<typeof callsReportQuery>

const figures = {
  calls: z.number().int(),
  answered: z.number().int(),
  missed: z.number().int(),
  talkSeconds: z.number().int(),
}

export const callsReport = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  totals: z.object({ ...figures, outbound: z.number().int(), inbound: z.number().int() }),
  byDay: z.array(z.object({ date: z.string(), ...figures })),
  byStaff: z.array(z.object({ userId: z.string(), userName: z.string(), ...figures })),
  byOutcome: z.array(z.object({ outcome: z.enum(callOutcomes), calls: z.number().int() })),
  byDisposition: z.array(
    z.object({ disposition: z.enum(callDispositions), calls: z.number().int() }),
  ),
  /** New leads of the range and how soon someone first called them. */
  firstResponse: z.object({
    newLeads: z.number().int(),
    called: z.number().int(),
    calledWithinHour: z.number().int(),
    medianMinutes: z.number().nullable(),
    averageMinutes: z.number().nullable(),
  }),
})
export type CallsReport = z.infer<typeof callsReport>
