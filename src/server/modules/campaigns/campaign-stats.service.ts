import { eq, sql } from 'drizzle-orm'
import { dateInZone } from '../../../shared/invoice-math'
import { formatMoney } from '../../../shared/money'
import type { campaignStatsInput } from '../../../shared/schemas/campaigns'
import type { Campaign } from '../../../shared/schemas/campaigns'
import type { z } from 'zod'
import { campaigns, campaignSpend } from '../../db/schema/campaigns'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { hospitalBilling } from '../billing/hospital-billing'
import { countCampaigns } from './campaign-counts'
import { audit, type CampaignOptions, loadCampaign, loadRow } from './campaigns.service'

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION', `Invalid input: ${path}: ${message}`, [{ path, message }])

/**
 * PATCH /api/campaigns/:id/stats (spec §7). `spend` sets one day's spend (replacing what that day
 * had) and campaigns.spent becomes the sum of the days, in one transaction. `leads` and
 * `conversions` are typed figures the campaign shows only while no lead is linked to it: once
 * leads are counted, typing them is a 409.
 */
export async function recordCampaignStats(
  opts: CampaignOptions & { id: string; input: z.output<typeof campaignStatsInput> },
): Promise<Campaign> {
  const { input } = opts
  const { timeZone } = await hospitalBilling(opts.db, opts.hospitalId)
  const today = dateInZone(opts.now ?? new Date(), timeZone)
  return withTenant(opts.db, opts, async (tx) => {
    const row = await loadRow(tx, opts.id, true)
    const notes: string[] = []
    if (input.leads !== undefined || input.conversions !== undefined) {
      const [counted] = await countCampaigns(tx, opts.hospitalId, [row])
      if (counted && counted.leads > 0)
        throw new AppError(
          'CONFLICT',
          `Leads and conversions are counted from the ${counted.leads} leads linked to this campaign and cannot be typed in`,
        )
      const leads = input.leads ?? row.manualLeads ?? 0
      const conversions = input.conversions ?? row.manualConversions ?? 0
      if (conversions > leads) throw invalid('conversions', 'Conversions cannot exceed leads')
      await tx
        .update(campaigns)
        .set({ manualLeads: leads, manualConversions: conversions })
        .where(eq(campaigns.id, row.id))
      notes.push(`${leads} leads, ${conversions} conversions`)
    }
    if (input.spend) {
      const { date, amount } = input.spend
      if (date > today) throw invalid('spend.date', 'Spend cannot be recorded for a future day')
      if (date < row.startDate)
        throw invalid('spend.date', 'Spend cannot be recorded before the campaign starts')
      await tx
        .insert(campaignSpend)
        .values({
          hospitalId: opts.hospitalId,
          campaignId: row.id,
          day: date,
          amount,
          updatedBy: opts.userId,
        })
        .onConflictDoUpdate({
          target: [campaignSpend.hospitalId, campaignSpend.campaignId, campaignSpend.day],
          set: { amount, updatedAt: sql`now()`, updatedBy: opts.userId },
        })
      await tx
        .update(campaigns)
        .set({
          spent: sql`(select coalesce(sum(s.amount), 0) from campaign_spend s
                      where s.hospital_id = ${opts.hospitalId} and s.campaign_id = ${row.id})`,
        })
        .where(eq(campaigns.id, row.id))
      notes.push(`spend ${formatMoney(amount)} on ${date}`)
    }
    await tx
      .update(campaigns)
      .set({ updatedAt: sql`now()` })
      .where(eq(campaigns.id, row.id))
    await audit(
      tx,
      opts,
      'campaign.stats_recorded',
      row.id,
      `Recorded for ${row.name}: ${notes.join('; ')}`,
    )
    return loadCampaign(tx, opts.hospitalId, row.id)
  })
}
