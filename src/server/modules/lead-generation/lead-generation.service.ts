import { desc } from 'drizzle-orm'
import {
  estimateLeads,
  LEAD_GEN_BUDGET_SCALE,
  oneTimeCostRupees,
} from '../../../shared/lead-generation'
import type { LeadGenRequest, LeadGenRequestList } from '../../../shared/schemas/lead-generation'
import type { AppDb } from '../../db/client'
import { leadGenerationRequests } from '../../db/schema/lead-generation'
import { withTenant } from '../../db/tenant'
import { recordAudit } from '../audit/audit.service'
import { type LeadGenRow, toLeadGenRequest } from './lead-generation-rows'

interface Acting {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

/** GET /api/marketing-campaigns: the hospital's requests, newest first. */
export async function listLeadGenRequests(opts: Acting): Promise<LeadGenRequestList> {
  const rows = await withTenant(opts.db, opts, (tx) =>
    tx
      .select()
      .from(leadGenerationRequests)
      .orderBy(desc(leadGenerationRequests.createdAt), desc(leadGenerationRequests.id))
      .limit(200),
  )
  return { items: rows.map(toLeadGenRequest) }
}

/**
 * POST /api/marketing-campaigns: stores the request with the server's own estimate and one-time
 * cost (from the budget and the options) and its audit row, in one tenant transaction.
 */
export async function createLeadGenRequest(
  opts: Acting & {
    input: {
      dailyBudget: number
      hasCreative: boolean
      needsCreative: boolean
      hasVideo: boolean
      needsVideoEditing: boolean
      notes: string | null
    }
  },
): Promise<LeadGenRequest> {
  const { input } = opts
  const rupees = input.dailyBudget / LEAD_GEN_BUDGET_SCALE
  const estimate = estimateLeads(rupees)
  const cost = oneTimeCostRupees(input)
  return withTenant(opts.db, opts, async (tx) => {
    const [row] = (await tx
      .insert(leadGenerationRequests)
      .values({
        hospitalId: opts.hospitalId,
        ...input,
        expectedLeadsMin: estimate.perDayMin,
        expectedLeadsMax: estimate.perDayMax,
        oneTimeCost: cost,
        createdBy: opts.userId,
      })
      .returning()) as LeadGenRow[]
    if (!row) throw new Error('lead_generation_requests row was not saved')
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'lead_generation.requested',
      entityType: 'lead_generation_request',
      entityId: row.id,
      summary: `Requested a lead-generation campaign at ₹${rupees.toLocaleString('en-IN')} a day (${estimate.perDayMin}–${estimate.perDayMax} leads a day)`,
    })
    return toLeadGenRequest(row)
  })
}
