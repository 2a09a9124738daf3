import { z } from 'zod'
import { type LeadSource, leadPriorities, leadSources, leadStatuses } from '../lead-labels'
import { normalizePhone } from '../phone'
import { optionalEmail, optionalText, paginationQuery, phoneNumber, requiredText } from './common'

/**
 * Leads and their communications (spec §2 "Lead Management Dashboard", §3 Lead and
 * Communication, §4 lead states; issue 8). Shared by the server (validation) and the client.
 */

// The lists and labels live in shared/lead-labels.ts, which screens that only show leads import
// without this file's phone check (libphonenumber's `max` metadata).
export * from '../lead-labels'

/** Sources a person may pick for a lead typed in by hand (New Lead). */
export const manualLeadSources = ['manual', 'walk-in', 'referral', 'google-ads'] as const

export const communicationTypes = ['email', 'phone', 'call', 'whatsapp', 'sms', 'system'] as const
export type CommunicationType = (typeof communicationTypes)[number]
export const communicationDirections = ['inbound', 'outbound'] as const
export type CommunicationDirection = (typeof communicationDirections)[number]
export const communicationStatuses = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'read',
  'failed',
  'received',
  'logged',
] as const
export type CommunicationStatus = (typeof communicationStatuses)[number]

/** A lead's phone: any valid number (an enquiry may come from a landline), stored E.164. */
const leadPhone = phoneNumber(normalizePhone, {
  required: 'Phone is required',
  invalid: 'Enter a valid phone number, e.g. 98765 43210',
})

const leadFields = {
  name: requiredText('Name', 200),
  phone: leadPhone,
  email: optionalEmail,
  serviceInterest: optionalText(200),
  campaign: optionalText(200),
  notes: optionalText(5000),
  priority: z.enum(leadPriorities, { message: 'Priority must be high, medium or low' }),
  /** A staff member of the same hospital, or null for nobody. */
  assignedToUserId: z.string({ message: 'Must be a user id' }).max(100).nullish(),
}

/** POST /api/leads: a walk-in or phone enquiry typed in by staff. */
export const createLeadInput = z.strictObject({
  ...leadFields,
  priority: leadFields.priority.default('medium'),
  source: z
    .enum(manualLeadSources, { message: 'Source must be manual, walk-in, referral or google-ads' })
    .default('manual'),
})
export type CreateLeadInput = z.input<typeof createLeadInput>

/** PATCH /api/leads/:id: any subset; status 'converted' is set only by /convert. */
export const updateLeadInput = z
  .strictObject({
    ...leadFields,
    status: z
      .enum(leadStatuses, { message: 'Unknown status' })
      .refine((s) => s !== 'converted', { message: 'Use Convert to patient to convert a lead' }),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Send at least one field to change' })
export type UpdateLeadInput = z.input<typeof updateLeadInput>

/** 'all' (the select's "no filter") is accepted and means no filter (spec §5). */
function filter<T extends readonly [string, ...string[]]>(values: T, label: string) {
  return z
    .union([z.literal('all'), z.enum(values)], {
      message: `${label} must be all or one of: ${values.join(', ')}`,
    })
    .optional()
    .transform((v) => (v === 'all' ? undefined : v))
}

/** GET /api/leads?status=&source=&search=&assignee=me|unassigned|<user id>&cursor=&limit= */
export const listLeadsQuery = z.strictObject({
  status: filter(leadStatuses, 'status'),
  source: filter(leadSources, 'source'),
  search: z
    .string()
    .trim()
    .max(200, { message: 'search must be at most 200 characters' })
    .optional(),
  assignee: z.string().trim().max(100, { message: 'assignee is too long' }).optional(),
  ...paginationQuery,
})
export type ListLeadsQuery = z.input<typeof listLeadsQuery>

export const lead = z.object({
  id: z.string(),
  hospitalId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string(),
  status: z.enum(leadStatuses),
  source: z.enum(leadSources),
  priority: z.enum(leadPriorities),
  serviceInterest: z.string().nullable(),
  campaign: z.string().nullable(),
  notes: z.string().nullable(),
  metaLeadId: z.string().nullable(),
  metaFormId: z.string().nullable(),
  assignedToUserId: z.string().nullable(),
  assignedToName: z.string().nullable(),
  /** The patient this lead became (set by /convert). */
  patientId: z.string().nullable(),
  /** Newest communication's time; null is shown as 'Never'. */
  lastContactAt: z.string().nullable(),
  /** Outbound contacts so far, and whether they went beyond Settings' max contact attempts. */
  contactAttempts: z.number(),
  contactLimitExceeded: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Lead = z.infer<typeof lead>

/** GET /api/leads: the spec's { leads } object, plus the next page's cursor. */
export const leadsPage = z.object({ leads: lead.array(), nextCursor: z.string().nullable() })
export type LeadsPage = z.infer<typeof leadsPage>

/** POST /api/leads answers 201 with a new lead, or 200 with duplicate: true when the phone was known. */
export const createLeadResult = z.object({ lead, duplicate: z.boolean() })
export type CreateLeadResult = z.infer<typeof createLeadResult>

export const communication = z.object({
  id: z.string(),
  /** The lead or the patient it concerns (messages to a patient who was never a lead: no lead). */
  leadId: z.string().nullable(),
  patientId: z.string().nullable(),
  type: z.enum(communicationTypes),
  direction: z.enum(communicationDirections),
  content: z.string(),
  status: z.enum(communicationStatuses),
  metadata: z.record(z.string(), z.unknown()),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  /** Messaging (issue 25): where it went or came from, and why it failed, in staff's words. */
  contactAddress: z.string().nullable(),
  provider: z.string().nullable(),
  failureReason: z.string().nullable(),
  /** Went to the Sandbox Outbox only: no person received it. */
  sandbox: z.boolean(),
  statusChangedAt: z.string().nullable(),
})
export type Communication = z.infer<typeof communication>

/** What staff may record by hand: every type but 'system', which only the server writes. */
export const staffCommunicationTypes = [
  'email',
  'phone',
  'call',
  'whatsapp',
  'sms',
] as const satisfies readonly CommunicationType[]
export type StaffCommunicationType = (typeof staffCommunicationTypes)[number]

/**
 * Metadata keys that only the server writes, because it relies on them (issue 24 item 8): a
 * Meta lead id in a lead's communications marks that Meta lead as already merged
 * (modules/meta/meta-leads.ts), so a forged one would make the real lead look like a
 * duplicate; the leadgen and form ids and `source` record where a merged enquiry came from;
 * `patientId` and `patientNumber` link a conversion. Refused under any spelling (case, `_`
 * or `-`), so a look-alike cannot be mistaken for one by a later reader either.
 */
export const serverMetadataKeys = [
  'metaLeadId',
  'metaFormId',
  'leadgenId',
  'formId',
  'source',
  'patientId',
  'patientNumber',
] as const
const keyForm = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '')
const serverKeyForms = new Set<string>(serverMetadataKeys.map(keyForm))
export const isServerMetadataKey = (key: string): boolean => serverKeyForms.has(keyForm(key))

export const SYSTEM_NOTE_MESSAGE = 'System notes are written by the server only'
export const SERVER_METADATA_MESSAGE = 'This metadata key is written by the server only'

/**
 * POST /api/communications: a call note or a record ('logged'), or a real send (issue 25): an
 * outbound WhatsApp, SMS or email with any status but 'logged' is queued for its provider (the
 * server decides its status). Exactly one of leadId and patientId.
 */
export const createCommunicationInput = z
  .strictObject({
    leadId: z.uuid({ message: 'leadId must be a valid id' }).optional(),
    patientId: z.uuid({ message: 'patientId must be a valid id' }).optional(),
    type: z.enum(staffCommunicationTypes, {
      error: (issue) =>
        issue.input === 'system' ? SYSTEM_NOTE_MESSAGE : 'Unknown communication type',
    }),
    direction: z.enum(communicationDirections, {
      message: 'direction must be inbound or outbound',
    }),
    content: z
      .string({ message: 'Content is required' })
      .trim()
      .max(5000, { message: 'Content must be at most 5000 characters' }),
    status: z.enum(communicationStatuses, { message: 'Unknown status' }).default('logged'),
    /** Email only. */
    subject: z
      .string({ message: 'Must be text' })
      .trim()
      .max(200, { message: 'Subject must be at most 200 characters' })
      .optional(),
    templateId: z.uuid({ message: 'templateId must be a valid id' }).optional(),
    metadata: z
      .record(z.string().max(100), z.union([z.string().max(1000), z.number(), z.boolean()]))
      .refine((m) => Object.keys(m).length <= 20, { message: 'At most 20 metadata entries' })
      .superRefine((m, ctx) => {
        for (const key of Object.keys(m)) {
          if (isServerMetadataKey(key)) {
            ctx.addIssue({ code: 'custom', path: [key], message: SERVER_METADATA_MESSAGE })
          }
        }
      })
      .default({}),
  })
  .superRefine((v, ctx) => {
    if (Boolean(v.leadId) === Boolean(v.patientId)) {
      ctx.addIssue({ code: 'custom', path: ['leadId'], message: 'Give either leadId or patientId' })
    }
    // A send may leave the text to its template (the template's body is sent).
    if (v.content === '' && !(isMessageSend(v) && v.templateId)) {
      const message = isMessageSend(v) ? 'Please enter a message.' : 'Content is required'
      ctx.addIssue({ code: 'custom', path: ['content'], message })
    }
  })
export type CreateCommunicationInput = z.input<typeof createCommunicationInput>

/** A real send (queued for a provider), not a record of one: see createCommunicationInput. */
export function isMessageSend(v: {
  type: CommunicationType
  direction: CommunicationDirection
  status: CommunicationStatus
}): v is {
  type: 'whatsapp' | 'sms' | 'email'
  direction: 'outbound'
  status: CommunicationStatus
} {
  return (
    v.direction === 'outbound' &&
    (v.type === 'whatsapp' || v.type === 'sms' || v.type === 'email') &&
    v.status !== 'logged'
  )
}

/** POST /api/leads/:id/convert answers 201 with both records; a second conversion is 409. */
export const convertLeadResult = z.object({
  lead,
  patient: z.object({ id: z.string(), name: z.string(), patientNumber: z.string() }),
})
export type ConvertLeadResult = z.infer<typeof convertLeadResult>

/** Follow-ups are due this many days after the last contact unless the hospital sets otherwise. */
export const DEFAULT_FOLLOW_UP_DAYS = 3

/**
 * GET /api/stats (spec §3 "Stats"), computed in the hospital's time zone.
 * - followUps: leads in contacted or follow-up whose last contact (or creation, if never
 *   contacted) is at least followUpDays ago: due today or earlier; and leads not converted or
 *   rejected whose newest call has a "call back at" time today or earlier (each lead once).
 * - trends.followUpsOverdue: those whose due day (or call-back time) was before today.
 * - trends.totalChangePct: leads created in the last 7 days (today and the 6 days before)
 *   against the 7 days before those, as a whole percent (25 = +25%; null when there were none
 *   before); newToday: created since midnight; conversionRate: converted / total as a percent
 *   to one decimal (36.4; 0 without leads).
 * - bellCount: followUpsOverdue plus unread inbound messages.
 */
export const stats = z.object({
  totalLeads: z.number(),
  newLeads: z.number(),
  followUps: z.number(),
  converted: z.number(),
  followUpDays: z.number(),
  trends: z.object({
    totalChangePct: z.number().nullable(),
    newToday: z.number(),
    conversionRate: z.number(),
    followUpsOverdue: z.number(),
  }),
  unreadInbound: z.number(),
  bellCount: z.number(),
})
export type Stats = z.infer<typeof stats>

/** GET /api/staff: the hospital's active staff, for the assignee picker. */
export const staffMember = z.object({ id: z.string(), name: z.string(), role: z.string() })
export type StaffMember = z.infer<typeof staffMember>
export const staffList = z.object({ staff: staffMember.array() })

/** How many calendar days GET /api/leads/trends covers. */
export const LEAD_TREND_DAYS = 30
const leadCount = z.number().int().nonnegative()

/**
 * GET /api/leads/trends: the dashboard's charts (issue 8), on the hospital's calendar days.
 * - days: exactly 30 entries, oldest first, ending today in the hospital's time zone; each
 *   counts the leads created that day by source, every source present (0 when none).
 * - funnel: the hospital's leads (all of them, not only the last 30 days) by the furthest
 *   stage their current status shows they reached. Stages are ordered new → contacted →
 *   follow-up → converted, so a lead counts in its own stage and every stage before it:
 *   new = every lead except rejected ones; contacted = contacted + follow-up + converted;
 *   followUp = follow-up + converted; converted = converted. Rejected leads count nowhere
 *   (their status no longer says how far they got).
 */
export const leadTrendsDay = z.object({
  date: z.iso.date(),
  counts: z.object(
    Object.fromEntries(leadSources.map((s) => [s, leadCount])) as Record<
      LeadSource,
      typeof leadCount
    >,
  ),
})
export type LeadTrendsDay = z.infer<typeof leadTrendsDay>
export const leadFunnelStages = ['new', 'contacted', 'followUp', 'converted'] as const
export type LeadFunnelStage = (typeof leadFunnelStages)[number]
export const leadFunnelStageLabels: Record<LeadFunnelStage, string> = {
  new: 'New',
  contacted: 'Contacted',
  followUp: 'Follow-up',
  converted: 'Converted',
}
export const leadTrends = z.object({
  days: leadTrendsDay.array().length(LEAD_TREND_DAYS),
  funnel: z.object({
    new: leadCount,
    contacted: leadCount,
    followUp: leadCount,
    converted: leadCount,
  }),
})
export type LeadTrends = z.infer<typeof leadTrends>
