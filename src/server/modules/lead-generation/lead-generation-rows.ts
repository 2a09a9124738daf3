import type { LeadGenStatus } from '../../../shared/lead-generation'
import { LEAD_GEN_DAYS_PER_MONTH } from '../../../shared/lead-generation'
import type { LeadGenRequest } from '../../../shared/schemas/lead-generation'
import type { leadGenerationRequests } from '../../db/schema/lead-generation'

/** What a request row becomes in a response (spec section 3, "Lead-generation campaign request"). */
export type LeadGenRow = typeof leadGenerationRequests.$inferSelect

export function toLeadGenRequest(r: LeadGenRow): LeadGenRequest {
  return {
    id: r.id,
    dailyBudget: r.dailyBudget,
    hasCreative: r.hasCreative,
    needsCreative: r.needsCreative,
    hasVideo: r.hasVideo,
    needsVideoEditing: r.needsVideoEditing,
    notes: r.notes,
    expectedLeads: {
      perDayMin: r.expectedLeadsMin,
      perDayMax: r.expectedLeadsMax,
      perMonthMin: r.expectedLeadsMin * LEAD_GEN_DAYS_PER_MONTH,
      perMonthMax: r.expectedLeadsMax * LEAD_GEN_DAYS_PER_MONTH,
    },
    oneTimeCost: r.oneTimeCost,
    campaignStatus: r.status as LeadGenStatus,
    statusNote: r.statusNote,
    statusChangedAt: r.statusChangedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }
}
