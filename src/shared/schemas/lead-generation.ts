import { z } from 'zod'
import {
  isValidDailyBudget,
  LEAD_GEN_BUDGET_MAX,
  LEAD_GEN_BUDGET_MIN,
  LEAD_GEN_BUDGET_SCALE,
  LEAD_GEN_BUDGET_STEP,
  leadGenStatuses,
} from '../lead-generation'

/*
 * Lead-generation campaign requests (issue 28, docs/decisions/034).
 *   GET  /api/marketing-campaigns                          (lead-generation:manage) newest first
 *   POST /api/marketing-campaigns                          (lead-generation:manage) a request
 *   GET  /api/admin/lead-generation-requests?status=       (super admin) every hospital's
 *   POST /api/admin/lead-generation-requests/:id/status    (super admin) {status, note}
 * The client sends only what the spec lists (section 7); the estimates and the one-time cost are
 * the server's: sending them is an unknown key (400).
 */

const budgetMessage = `Daily budget must be ₹${LEAD_GEN_BUDGET_MIN.toLocaleString('en-IN')} to ₹${LEAD_GEN_BUDGET_MAX.toLocaleString('en-IN')} in steps of ₹${LEAD_GEN_BUDGET_STEP}`

export const createLeadGenRequestInput = z
  .strictObject({
    /** 100 times the rupee amount (spec section 9). */
    dailyBudget: z
      .number({ message: budgetMessage })
      .int({ message: budgetMessage })
      .refine(
        (v) => v % LEAD_GEN_BUDGET_SCALE === 0 && isValidDailyBudget(v / LEAD_GEN_BUDGET_SCALE),
        { message: budgetMessage },
      ),
    hasCreative: z.boolean({ message: 'Must be true or false' }).default(false),
    needsCreative: z.boolean({ message: 'Must be true or false' }).default(false),
    hasVideo: z.boolean({ message: 'Must be true or false' }).default(false),
    needsVideoEditing: z.boolean({ message: 'Must be true or false' }).default(false),
    notes: z
      .string({ message: 'Notes must be text' })
      .trim()
      .max(2000, { message: 'Notes must be at most 2000 characters' })
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((v, ctx) => {
    if (v.hasCreative && v.needsCreative)
      ctx.addIssue({
        code: 'custom',
        path: ['needsCreative'],
        message: 'Choose either your own creative or a professional one, not both',
      })
    if (v.hasVideo && v.needsVideoEditing)
      ctx.addIssue({
        code: 'custom',
        path: ['needsVideoEditing'],
        message: 'Choose either your own video or professional video editing, not both',
      })
  })
export type CreateLeadGenRequestInput = z.input<typeof createLeadGenRequestInput>

export const leadGenStatusSchema = z.enum(leadGenStatuses, {
  message: 'Choose requested, approved, active, paused or completed',
})

export const listLeadGenRequestsQuery = z.strictObject({
  status: leadGenStatusSchema.optional(),
})

export const moveLeadGenRequestInput = z.strictObject({
  status: leadGenStatusSchema,
  note: z
    .string({ message: 'Note must be text' })
    .trim()
    .max(1000, { message: 'Note must be at most 1000 characters' })
    .nullish()
    .transform((v) => (v ? v : null)),
})
export type MoveLeadGenRequestInput = z.input<typeof moveLeadGenRequestInput>

export interface LeadGenRequest {
  id: string
  /** 100 times the rupee amount. */
  dailyBudget: number
  hasCreative: boolean
  needsCreative: boolean
  hasVideo: boolean
  needsVideoEditing: boolean
  notes: string | null
  /** Expected leads per day, low and high (the month is 30 times). */
  expectedLeads: { perDayMin: number; perDayMax: number; perMonthMin: number; perMonthMax: number }
  /** Rupees. */
  oneTimeCost: number
  campaignStatus: (typeof leadGenStatuses)[number]
  statusNote: string | null
  statusChangedAt: string | null
  createdAt: string
}

export interface LeadGenRequestList {
  items: LeadGenRequest[]
}

/** A request as the platform sees it: with its hospital. */
export interface AdminLeadGenRequest extends LeadGenRequest {
  hospitalId: string
  hospitalName: string
}

export interface AdminLeadGenRequestList {
  items: AdminLeadGenRequest[]
}
