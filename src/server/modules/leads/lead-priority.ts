import type { LeadPriority, LeadSource } from '../../../shared/schemas/leads'

/**
 * Priority scoring (Settings → General → lead management, issue 27): a new lead's priority
 * from what is known when it arrives. Points add up; 3 or more is high, below 0 is low, the
 * rest medium, so an ordinary fresh phone enquiry stays medium.
 *
 * - Source: how likely such a lead is to book. A referral or a walk-in (someone sent by a
 *   patient, or standing at the desk) +2; Google Ads (searched for the clinic) or a phone call to the hospital +1; Facebook,
 *   Instagram, a phone enquiry or a CSV row 0.
 * - Service interest: a high-value treatment (surgery, implants, IVF...) +2; any other named
 *   service +1; none or a generic "General Inquiry" 0.
 * - Recency: how long ago the person enquired. Within the hour +1 (they are still waiting
 *   by the phone); up to 3 days 0; up to 14 days -1; older -2 (a lead ad synced weeks late).
 */
export interface PriorityInput {
  source: LeadSource
  serviceInterest: string | null
  /** When the person enquired (a lead ad's created_time); null means just now. */
  enquiredAt: Date | null
  now: Date
}

const sourcePoints: Record<LeadSource, number> = {
  referral: 2,
  'walk-in': 2,
  'google-ads': 1,
  'meta-facebook': 0,
  'meta-instagram': 0,
  manual: 0,
  'csv-import': 0,
  // Someone who rang the hospital themselves (issue 41) is asking now, as an ad click is not.
  phone: 1,
}

/** Treatments a clinic earns most from and patients decide on quickly once they ask. */
const highValue =
  /\b(surger(y|ies)|surgical|implants?|ivf|fertility|transplant|cardiac|bypass|angioplasty|knee|hip|joint replacement|cataract|lasik|orthodontic|braces|aligners?|cosmetic|bariatric|hair transplant|root canal|maternity|delivery)\b/i
const generic = /^(general (inquiry|enquiry)|general|inquiry|enquiry|n\/?a|none|-)$/i

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

export function servicePoints(serviceInterest: string | null): number {
  const text = serviceInterest?.trim() ?? ''
  if (!text || generic.test(text)) return 0
  return highValue.test(text) ? 2 : 1
}

export function recencyPoints(enquiredAt: Date | null, now: Date): number {
  if (!enquiredAt || Number.isNaN(enquiredAt.getTime())) return 1
  const age = now.getTime() - enquiredAt.getTime()
  if (age <= HOUR) return 1
  if (age <= 3 * DAY) return 0
  if (age <= 14 * DAY) return -1
  return -2
}

export function priorityScore(input: PriorityInput): number {
  return (
    sourcePoints[input.source] +
    servicePoints(input.serviceInterest) +
    recencyPoints(input.enquiredAt, input.now)
  )
}

export function scoredPriority(input: PriorityInput): LeadPriority {
  const score = priorityScore(input)
  if (score >= 3) return 'high'
  if (score < 0) return 'low'
  return 'medium'
}
