import type { Campaign, CampaignSummary } from '../../../shared/schemas/campaigns'
import type { campaigns } from '../../db/schema/campaigns'
import type { CampaignCounts } from './campaign-counts'

export type CampaignRow = typeof campaigns.$inferSelect

const rate = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0

/** The API's campaign: stored fields plus the figures counted from leads and invoices. */
export function toCampaign(row: CampaignRow, counts: CampaignCounts): Campaign {
  const countedFromLeads = counts.leads > 0
  const leads = countedFromLeads ? counts.leads : (row.manualLeads ?? 0)
  const conversions = countedFromLeads ? counts.conversions : (row.manualConversions ?? 0)
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    startDate: row.startDate,
    endDate: row.endDate,
    budget: row.budget,
    spent: row.spent,
    targetAudience: row.targetAudience,
    metaFormId: row.metaFormId,
    leadCampaign: row.leadCampaign,
    utmCampaign: row.utmCampaign,
    countedFromLeads,
    leads,
    conversions,
    revenue: counts.revenue,
    costPerLead: leads > 0 ? Math.round(row.spent / leads) : 0,
    conversionRate: rate(conversions, leads),
    roi: row.spent > 0 ? Math.round(((counts.revenue - row.spent) / row.spent) * 1000) / 10 : null,
  }
}

/** The four summary cards (spec §2): over every campaign of the hospital, whatever the filter. */
export function summarise(all: Campaign[]): CampaignSummary {
  const totalSpent = all.reduce((s, c) => s + c.spent, 0)
  const totalLeads = all.reduce((s, c) => s + c.leads, 0)
  const conversions = all.reduce((s, c) => s + c.conversions, 0)
  return {
    totalBudget: all.reduce((s, c) => s + c.budget, 0),
    totalSpent,
    totalLeads,
    avgCostPerLead: totalLeads > 0 ? Math.round(totalSpent / totalLeads) : 0,
    conversions,
    conversionRate: rate(conversions, totalLeads),
    activeCampaigns: all.filter((c) => c.status === 'active').length,
    totalCampaigns: all.length,
  }
}
