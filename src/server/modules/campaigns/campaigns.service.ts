import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import { dateInZone } from '../../../shared/invoice-math'
import { formatMoney } from '../../../shared/money'
import {
  type CampaignAction,
  campaignMoves,
  type CampaignStatus,
  campaignStatusLabels,
} from '../../../shared/campaign-labels'
import type {
  Campaign,
  CampaignDetail,
  CampaignList,
  CreateCampaignData,
  UpdateCampaignData,
} from '../../../shared/schemas/campaigns'
import type { AppDb, Tx } from '../../db/client'
import { campaigns } from '../../db/schema/campaigns'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { hospitalBilling } from '../billing/hospital-billing'
import { isUniqueViolation } from '../../db/sql-error'
import { campaignDays, countCampaigns, nextDay } from './campaign-counts'
import { type CampaignRow, summarise, toCampaign } from './campaign-view'

export interface CampaignOptions {
  db: AppDb
  hospitalId: string
  userId: string | null
  impersonatorUserId?: string | null | undefined
  now?: Date | undefined
}

/** The most days a campaign's detail chart shows (the latest ones). */
export const MAX_SERIES_DAYS = 180

export const audit = (
  tx: Tx,
  opts: CampaignOptions,
  action: string,
  entityId: string,
  summary: string,
) =>
  recordAudit(tx, {
    hospitalId: opts.hospitalId,
    actorUserId: opts.userId,
    impersonatorUserId: opts.impersonatorUserId,
    action,
    entityType: 'campaign',
    entityId,
    summary,
  })

async function withCounts(tx: Tx, hospitalId: string, rows: CampaignRow[]): Promise<Campaign[]> {
  const counts = await countCampaigns(tx, hospitalId, rows)
  return rows.map((row, i) =>
    toCampaign(row, counts[i] ?? { leads: 0, conversions: 0, revenue: 0 }),
  )
}

export async function loadRow(tx: Tx, id: string, lock = false): Promise<CampaignRow> {
  const query = tx.select().from(campaigns).where(eq(campaigns.id, id))
  const [row] = lock ? await query.for('update') : await query
  if (!row) throw notFound('Campaign')
  return row
}

export async function loadCampaign(tx: Tx, hospitalId: string, id: string): Promise<Campaign> {
  const [c] = await withCounts(tx, hospitalId, [await loadRow(tx, id)])
  if (!c) throw notFound('Campaign')
  return c
}

function constraintOf(error: unknown): string {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const name = (e as { constraint?: unknown }).constraint
    if (typeof name === 'string') return name
  }
  return ''
}

/**
 * A unique index the campaign's fields collide with, as a 409 on that field. The lead campaign
 * defaults to the name, so its collision is the name's when the client sent none.
 */
function conflictOf(error: unknown, leadCampaignSent: boolean): AppError | null {
  if (!isUniqueViolation(error)) return null
  const constraint = constraintOf(error)
  const [path, message] =
    constraint.includes('lead_campaign') && leadCampaignSent
      ? ['leadCampaign', 'Another campaign already counts leads of this campaign name']
      : constraint.includes('meta_form')
        ? ['metaFormId', 'Another campaign already counts leads of this Meta form']
        : ['name', 'A campaign with this name exists already']
  return new AppError('CONFLICT', message, [{ path, message }])
}

export async function listCampaigns(
  opts: CampaignOptions & { status?: CampaignStatus | undefined },
): Promise<CampaignList> {
  return withTenant(opts.db, opts, async (tx) => {
    const rows = await tx
      .select()
      .from(campaigns)
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(500)
    const all = await withCounts(tx, opts.hospitalId, rows)
    return {
      campaigns: opts.status ? all.filter((c) => c.status === opts.status) : all,
      summary: summarise(all),
    }
  })
}

export async function getCampaign(opts: CampaignOptions & { id: string }): Promise<CampaignDetail> {
  const { timeZone } = await hospitalBilling(opts.db, opts.hospitalId)
  const today = dateInZone(opts.now ?? new Date(), timeZone)
  return withTenant(opts.db, opts, async (tx) => {
    const row = await loadRow(tx, opts.id)
    const [campaign] = await withCounts(tx, opts.hospitalId, [row])
    if (!campaign) throw notFound('Campaign')
    const end = row.endDate && row.endDate < today ? row.endDate : today
    const earliest = nextDay(end, -(MAX_SERIES_DAYS - 1))
    const from = row.startDate > end ? end : row.startDate < earliest ? earliest : row.startDate
    const series = await campaignDays(tx, {
      hospitalId: opts.hospitalId,
      campaignId: row.id,
      link: row,
      timeZone,
      from,
      to: end,
    })
    return { campaign, series }
  })
}

export async function createCampaign(
  opts: CampaignOptions & { input: CreateCampaignData },
): Promise<Campaign> {
  const { input } = opts
  try {
    return await withTenant(opts.db, opts, async (tx) => {
      const [row] = await tx
        .insert(campaigns)
        .values({
          hospitalId: opts.hospitalId,
          ...input,
          leadCampaign: input.leadCampaign ?? input.name,
          createdBy: opts.userId,
        })
        .returning({ id: campaigns.id })
      if (!row) throw new AppError('INTERNAL', 'Campaign was not saved')
      await audit(
        tx,
        opts,
        'campaign.created',
        row.id,
        `Created campaign ${input.name} (${campaignStatusLabels[input.status]}, budget ${formatMoney(input.budget)})`,
      )
      return loadCampaign(tx, opts.hospitalId, row.id)
    })
  } catch (error) {
    throw conflictOf(error, input.leadCampaign !== null) ?? error
  }
}

export async function updateCampaign(
  opts: CampaignOptions & { id: string; input: UpdateCampaignData },
): Promise<Campaign> {
  const { input } = opts
  try {
    return await withTenant(opts.db, opts, async (tx) => {
      const before = await loadRow(tx, opts.id, true)
      // Left out, the lead-campaign name is the campaign's name: compare what is stored.
      const stored = { ...input, leadCampaign: input.leadCampaign ?? input.name }
      await tx
        .update(campaigns)
        .set({ ...stored, updatedAt: sql`now()` })
        .where(eq(campaigns.id, opts.id))
      const changed = (Object.keys(stored) as (keyof UpdateCampaignData)[]).filter(
        (k) => JSON.stringify(before[k]) !== JSON.stringify(stored[k]),
      )
      await audit(
        tx,
        opts,
        'campaign.updated',
        opts.id,
        `Updated campaign ${input.name}${changed.length ? `: ${changed.join(', ')}` : ''}`,
      )
      return loadCampaign(tx, opts.hospitalId, opts.id)
    })
  } catch (error) {
    throw conflictOf(error, input.leadCampaign !== null) ?? error
  }
}

const refusals: Record<CampaignAction, string> = {
  activate: 'Only a draft campaign can be activated',
  pause: 'Only an active campaign can be paused',
  resume: 'Only a paused campaign can be resumed',
  complete: 'Only an active or paused campaign can be completed',
}

/** Spec §4: draft → active; active ⇄ paused; active or paused → completed; else 409. */
export async function moveCampaign(
  opts: CampaignOptions & { id: string; action: CampaignAction },
): Promise<Campaign> {
  const move = campaignMoves[opts.action]
  return withTenant(opts.db, opts, async (tx) => {
    const [moved] = await tx
      .update(campaigns)
      .set({ status: move.to, updatedAt: sql`now()` })
      .where(and(eq(campaigns.id, opts.id), inArray(campaigns.status, [...move.from])))
      .returning({ name: campaigns.name })
    if (!moved) {
      const row = await loadRow(tx, opts.id)
      throw new AppError(
        'CONFLICT',
        `${refusals[opts.action]}: this one is ${campaignStatusLabels[row.status].toLowerCase()}`,
      )
    }
    await audit(
      tx,
      opts,
      `campaign.${opts.action}d`,
      opts.id,
      `Campaign ${moved.name} is now ${campaignStatusLabels[move.to].toLowerCase()}`,
    )
    return loadCampaign(tx, opts.hospitalId, opts.id)
  })
}
