/*
 * Lead-generation campaign requests (spec section 9, "Lead-generation campaign request";
 * docs/decisions/034). Pure: the request dialog shows these figures and the server recomputes
 * and stores them, never trusting the client's.
 */

/** Daily budget slider, in rupees (spec section 5). */
export const LEAD_GEN_BUDGET_MIN = 1000
export const LEAD_GEN_BUDGET_MAX = 20000
export const LEAD_GEN_BUDGET_STEP = 500
export const LEAD_GEN_BUDGET_DEFAULT = 1000
/** The API carries and stores the daily budget as 100 times the rupee amount. */
export const LEAD_GEN_BUDGET_SCALE = 100

/** Rupees of daily budget per lead: the low estimate divides by 50, the high one by 25. */
const RUPEES_PER_LEAD_HIGH_COST = 50
const RUPEES_PER_LEAD_LOW_COST = 25
/** Neither daily estimate goes above this. */
export const LEAD_GEN_MAX_LEADS_PER_DAY = 400
export const LEAD_GEN_DAYS_PER_MONTH = 30

/** One-time costs in rupees. */
export const PROFESSIONAL_CREATIVE_RUPEES = 1000
export const VIDEO_EDITING_RUPEES = 5000

export interface LeadEstimate {
  perDayMin: number
  perDayMax: number
  perMonthMin: number
  perMonthMax: number
}

/** A rupee budget the slider can take: an integer in range on a 500 step. */
export function isValidDailyBudget(rupees: number): boolean {
  return (
    Number.isInteger(rupees) &&
    rupees >= LEAD_GEN_BUDGET_MIN &&
    rupees <= LEAD_GEN_BUDGET_MAX &&
    (rupees - LEAD_GEN_BUDGET_MIN) % LEAD_GEN_BUDGET_STEP === 0
  )
}

/** Expected leads for a daily budget in rupees: floor(b/50) to floor(b/25), each capped at 400. */
export function estimateLeads(budgetRupees: number): LeadEstimate {
  const perDayMin = Math.min(
    Math.floor(budgetRupees / RUPEES_PER_LEAD_HIGH_COST),
    LEAD_GEN_MAX_LEADS_PER_DAY,
  )
  const perDayMax = Math.min(
    Math.floor(budgetRupees / RUPEES_PER_LEAD_LOW_COST),
    LEAD_GEN_MAX_LEADS_PER_DAY,
  )
  return {
    perDayMin,
    perDayMax,
    perMonthMin: perDayMin * LEAD_GEN_DAYS_PER_MONTH,
    perMonthMax: perDayMax * LEAD_GEN_DAYS_PER_MONTH,
  }
}

/** The one-time cost in rupees of the professional services asked for. */
export function oneTimeCostRupees(opts: {
  needsCreative: boolean
  needsVideoEditing: boolean
}): number {
  return (
    (opts.needsCreative ? PROFESSIONAL_CREATIVE_RUPEES : 0) +
    (opts.needsVideoEditing ? VIDEO_EDITING_RUPEES : 0)
  )
}

export const leadGenStatuses = ['requested', 'approved', 'active', 'paused', 'completed'] as const
export type LeadGenStatus = (typeof leadGenStatuses)[number]

/** requested → approved → active ⇄ paused → completed (active may complete too). */
export const leadGenNextStatuses: Record<LeadGenStatus, readonly LeadGenStatus[]> = {
  requested: ['approved'],
  approved: ['active'],
  active: ['paused', 'completed'],
  paused: ['active', 'completed'],
  completed: [],
}

export function canMoveLeadGen(from: LeadGenStatus, to: LeadGenStatus): boolean {
  return leadGenNextStatuses[from].includes(to)
}

export const leadGenStatusLabels: Record<LeadGenStatus, string> = {
  requested: 'Requested',
  approved: 'Approved',
  active: 'Active',
  paused: 'Paused',
  completed: 'Completed',
}
