import { z } from 'zod'
import { campaignStatuses, campaignTypes } from '../campaign-labels'
import { isoDate, optionalText, requiredText } from './common'

/*
 * Marketing campaigns API contract (issue 28, spec §3 Campaign, §7 /api/campaigns). Money is
 * integer paise; leads, conversions and revenue are counted by the server from real leads and
 * invoices, never sent by the client (unknown fields are refused).
 */

/** ₹10 crore: the largest budget or day's spend one campaign may have. */
export const MAX_CAMPAIGN_PAISE = 10_000_000_000
export const MAX_AUDIENCE_KEYS = 20
export const MAX_AUDIENCE_KEY_LENGTH = 40
export const MAX_AUDIENCE_VALUE_LENGTH = 100
export const MAX_AUDIENCE_VALUES = 20

const paise = (label: string) =>
  z
    .number({ message: `${label} must be a number of paise` })
    .int({ message: `${label} must be a whole number of paise` })
    .min(0, { message: `${label} cannot be negative` })
    .max(MAX_CAMPAIGN_PAISE, { message: `${label} must be at most ₹10 crore` })

const audienceValueText = z
  .string({ message: 'Audience values must be text or a list of text' })
  .trim()
  .min(1, { message: 'Audience values cannot be empty' })
  .max(MAX_AUDIENCE_VALUE_LENGTH, {
    message: `Audience values must be at most ${MAX_AUDIENCE_VALUE_LENGTH} characters`,
  })

/** Target audience: key → text or list of text ({ age: '25-45', city: ['Pune', 'Mumbai'] }). */
export const targetAudience = z
  .record(
    z
      .string()
      .trim()
      .min(1, { message: 'Audience keys cannot be empty' })
      .max(MAX_AUDIENCE_KEY_LENGTH, {
        message: `Audience keys must be at most ${MAX_AUDIENCE_KEY_LENGTH} characters`,
      })
      .refine((k) => k !== '__proto__' && k !== 'constructor' && k !== 'prototype', {
        message: 'That audience key is not allowed',
      }),
    z.union(
      [
        audienceValueText,
        z
          .array(audienceValueText, { message: 'Audience values must be text or a list of text' })
          .min(1, { message: 'An audience list needs at least one value' })
          .max(MAX_AUDIENCE_VALUES, {
            message: `An audience list has at most ${MAX_AUDIENCE_VALUES} values`,
          }),
      ],
      { message: 'Audience values must be text or a list of text' },
    ),
    { message: 'Target audience must be a map of key to text or list of text' },
  )
  .refine((m) => Object.keys(m).length <= MAX_AUDIENCE_KEYS, {
    message: `Target audience has at most ${MAX_AUDIENCE_KEYS} keys`,
  })
export type TargetAudience = z.infer<typeof targetAudience>

const campaignFields = {
  name: requiredText('Name', 120),
  type: z.enum(campaignTypes, { message: `Type must be one of ${campaignTypes.join(', ')}` }),
  budget: paise('Budget'),
  startDate: isoDate,
  endDate: isoDate.nullish().transform((v) => v ?? null),
  targetAudience: targetAudience.optional().transform((v) => v ?? {}),
  /** The lead-ads form whose leads are this campaign's. */
  metaFormId: optionalText(100),
  /** The campaign text leads carry (lead ads' campaign name, a CSV's campaign column). */
  leadCampaign: optionalText(200),
  utmCampaign: optionalText(100),
}

function datesInOrder(v: { startDate: string; endDate: string | null }, ctx: z.RefinementCtx) {
  if (v.endDate !== null && v.endDate < v.startDate)
    ctx.addIssue({
      code: 'custom',
      path: ['endDate'],
      message: 'End date cannot be before the start date',
    })
}

export const createCampaignInput = z
  .strictObject({
    ...campaignFields,
    status: z
      .enum(['draft', 'active'], { message: 'A new campaign starts as draft or active' })
      .optional()
      .transform((v) => v ?? 'draft'),
  })
  .superRefine(datesInOrder)
export type CreateCampaignInput = z.input<typeof createCampaignInput>
export type CreateCampaignData = z.output<typeof createCampaignInput>

export const updateCampaignInput = z.strictObject(campaignFields).superRefine(datesInOrder)
export type UpdateCampaignInput = z.input<typeof updateCampaignInput>
export type UpdateCampaignData = z.output<typeof updateCampaignInput>

const count = (label: string) =>
  z
    .number({ message: `${label} must be a number` })
    .int({ message: `${label} must be a whole number` })
    .min(0, { message: `${label} cannot be negative` })
    .max(10_000_000, { message: `${label} is too large` })

/**
 * PATCH /api/campaigns/:id/stats: records a day's spend (replacing that day's figure), and may
 * correct leads/conversions only while no lead is linked to the campaign.
 */
export const campaignStatsInput = z
  .strictObject({
    spend: z.strictObject({ date: isoDate, amount: paise('Spend') }).optional(),
    leads: count('Leads').optional(),
    conversions: count('Conversions').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.spend === undefined && v.leads === undefined && v.conversions === undefined)
      ctx.addIssue({ code: 'custom', path: [], message: 'Send spend, leads or conversions' })
    if (v.leads !== undefined && v.conversions !== undefined && v.conversions > v.leads)
      ctx.addIssue({
        code: 'custom',
        path: ['conversions'],
        message: 'Conversions cannot exceed leads',
      })
  })
export type CampaignStatsInput = z.input<typeof campaignStatsInput>

export const listCampaignsQuery = z.strictObject({
  status: z
    .enum(campaignStatuses, { message: `status must be one of ${campaignStatuses.join(', ')}` })
    .optional(),
})

export const campaignActionParam = z.strictObject({
  id: z.uuid({ message: 'Must be a valid id' }),
  action: z.enum(['activate', 'pause', 'resume', 'complete'], { message: 'Unknown action' }),
})

export const campaign = z.strictObject({
  id: z.string(),
  name: z.string(),
  type: z.enum(campaignTypes),
  status: z.enum(campaignStatuses),
  createdAt: z.string(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  budget: z.number(),
  spent: z.number(),
  targetAudience: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  metaFormId: z.string().nullable(),
  leadCampaign: z.string(),
  utmCampaign: z.string().nullable(),
  /** True when leads and conversions are counted from linked leads (false: typed figures). */
  countedFromLeads: z.boolean(),
  leads: z.number(),
  conversions: z.number(),
  /** Paid invoices of the patients its converted leads became (paise). */
  revenue: z.number(),
  /** Paise per lead, rounded; 0 when no leads. */
  costPerLead: z.number(),
  /** Percentage, conversions over leads; 0 when no leads. */
  conversionRate: z.number(),
  /** Return on spend, (revenue − spent) / spent as a percentage; null when nothing spent. */
  roi: z.number().nullable(),
})
export type Campaign = z.infer<typeof campaign>

export const campaignSummary = z.strictObject({
  totalBudget: z.number(),
  totalSpent: z.number(),
  totalLeads: z.number(),
  avgCostPerLead: z.number(),
  conversions: z.number(),
  conversionRate: z.number(),
  activeCampaigns: z.number(),
  totalCampaigns: z.number(),
})
export type CampaignSummary = z.infer<typeof campaignSummary>

export const campaignList = z.strictObject({
  campaigns: z.array(campaign),
  summary: campaignSummary,
})
export type CampaignList = z.infer<typeof campaignList>

export const campaignDay = z.strictObject({
  date: z.string(),
  leads: z.number(),
  conversions: z.number(),
  spend: z.number(),
})
export type CampaignDay = z.infer<typeof campaignDay>

export const campaignDetail = z.strictObject({
  campaign,
  series: z.array(campaignDay),
})
export type CampaignDetail = z.infer<typeof campaignDetail>
