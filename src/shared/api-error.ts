import { z } from 'zod'

/** Every error the API returns has this body; the code decides the HTTP status. */
export const errorCodes = {
  VALIDATION: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  /** A platform account that has not turned on two-factor may only enrol. */
  TWO_FACTOR_REQUIRED: 403,
  /** The hospital is cancelled or past due beyond the grace period: reads and exports only. */
  HOSPITAL_READ_ONLY: 403,
  /** The super admin's support access to the hospital expired or was revoked (decision 029). */
  SUPPORT_ACCESS_ENDED: 403,
  /** A support visit (issue 39) may not do this: only the hospital's own admin may. */
  SUPPORT_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** Messaging: the contact opted out of this channel (issue 25). */
  OPTED_OUT: 409,
  /** Messaging: WhatsApp free-form text outside the 24-hour window; only an approved template. */
  OUTSIDE_WINDOW: 409,
  /** Appointments: the doctor already has an overlapping active appointment (issue 26). */
  APPOINTMENT_CLASH: 409,
  /** A status change the state machine forbids (appointments, invoices; issue 26). */
  INVALID_TRANSITION: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** The hospital's disk quota (issue 39): the message names the limit and the usage. */
  STORAGE_QUOTA_EXCEEDED: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** A provider (Meta's Graph API) answered with an error; the message is its text. */
  UPSTREAM: 502,
  /** PostgreSQL or PgBouncer cannot be reached right now; retry shortly. */
  DATABASE_UNAVAILABLE: 503,
} as const

export type ErrorCode = keyof typeof errorCodes

export const apiIssue = z.object({ path: z.string(), message: z.string() })
export type ApiIssue = z.infer<typeof apiIssue>

export const apiErrorBody = z.object({
  message: z.string(),
  code: z.string(),
  issues: z.array(apiIssue).optional(),
})
export type ApiErrorBody = z.infer<typeof apiErrorBody>
