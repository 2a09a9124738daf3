import { type SQL, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'

/** A campaign's link keys: a lead is its when either matches. */
export interface CampaignLinks {
  leadCampaign: string
  metaFormId: string | null
}

export interface CampaignCounts {
  leads: number
  conversions: number
  revenue: number
}

interface Group {
  campaign: string | null
  meta_form_id: string | null
  leads: number | string
  conversions: number | string
  revenue: number | string
}

async function rows<T>(tx: Tx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows
}

const list = (values: string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )

/**
 * Leads, conversions (converted leads) and revenue (paid invoices of the patients they became)
 * per campaign, counted from the leads themselves. Leads and conversions come from the counters
 * kept per link key (campaign text, form id) by triggers on leads (drizzle/0034): a few rows
 * however many leads there are. Revenue reads the converted leads that became patients (a
 * partial index) and their paid invoices. Each group is then added to every campaign whose key
 * it carries, so a lead matching a campaign by both keys counts once.
 */
export async function countCampaigns(
  tx: Tx,
  hospitalId: string,
  links: CampaignLinks[],
): Promise<CampaignCounts[]> {
  const names = [...new Set(links.map((l) => l.leadCampaign))]
  const forms = [...new Set(links.flatMap((l) => (l.metaFormId ? [l.metaFormId] : [])))]
  if (names.length === 0) return []
  const keyed = forms.length
    ? sql`(c.campaign in (${list(names)}) or c.meta_form_id in (${list(forms)}))`
    : sql`c.campaign in (${list(names)})`
  const linked = forms.length
    ? sql`(l.campaign in (${list(names)}) or l.meta_form_id in (${list(forms)}))`
    : sql`l.campaign in (${list(names)})`
  const [counted, paid] = [
    await rows<Group>(
      tx,
      sql`select nullif(c.campaign, '') as campaign, nullif(c.meta_form_id, '') as meta_form_id,
            c.leads, c.conversions, 0 as revenue
          from campaign_link_counts c
          where c.hospital_id = ${hospitalId} and ${keyed} and (c.leads <> 0 or c.conversions <> 0)`,
    ),
    await rows<Group>(
      tx,
      sql`select l.campaign, l.meta_form_id, 0 as leads, 0 as conversions,
            coalesce(sum(i.amount), 0)::text as revenue
          from leads l
          join invoices i on i.hospital_id = l.hospital_id and i.patient_id = l.patient_id
            and i.status = 'paid'
          where l.hospital_id = ${hospitalId} and l.status = 'converted'
            and l.patient_id is not null and ${linked}
          group by l.campaign, l.meta_form_id`,
    ),
  ]
  const groups = [...counted, ...paid]
  return links.map((link) => {
    const total: CampaignCounts = { leads: 0, conversions: 0, revenue: 0 }
    for (const g of groups) {
      const mine =
        g.campaign === link.leadCampaign ||
        (link.metaFormId !== null && g.meta_form_id === link.metaFormId)
      if (!mine) continue
      total.leads += Number(g.leads)
      total.conversions += Number(g.conversions)
      total.revenue += Number(g.revenue)
    }
    return total
  })
}

/** Leads, conversions and spend per day (hospital's zone) of one campaign, from..to inclusive. */
export async function campaignDays(
  tx: Tx,
  opts: {
    hospitalId: string
    campaignId: string
    link: CampaignLinks
    timeZone: string
    from: string
    to: string
  },
): Promise<{ date: string; leads: number; conversions: number; spend: number }[]> {
  const { link } = opts
  const linked = link.metaFormId
    ? sql`(l.campaign = ${link.leadCampaign} or l.meta_form_id = ${link.metaFormId})`
    : sql`l.campaign = ${link.leadCampaign}`
  const leadDays = await rows<{
    day: string
    leads: string | number
    conversions: string | number
  }>(
    tx,
    sql`select to_char((l.created_at at time zone ${opts.timeZone})::date, 'YYYY-MM-DD') as day,
          count(*) as leads, count(*) filter (where l.status = 'converted') as conversions
        from leads l
        where l.hospital_id = ${opts.hospitalId} and ${linked}
          and (l.created_at at time zone ${opts.timeZone})::date between ${opts.from}::date and ${opts.to}::date
        group by 1`,
  )
  const spendDays = await rows<{ day: string; amount: string | number }>(
    tx,
    sql`select to_char(day, 'YYYY-MM-DD') as day, amount::text as amount from campaign_spend
        where hospital_id = ${opts.hospitalId} and campaign_id = ${opts.campaignId}
          and day between ${opts.from}::date and ${opts.to}::date`,
  )
  const byDay = new Map<string, { leads: number; conversions: number; spend: number }>()
  for (let d = opts.from; d <= opts.to; d = nextDay(d))
    byDay.set(d, { leads: 0, conversions: 0, spend: 0 })
  for (const r of leadDays) {
    const day = byDay.get(r.day)
    if (day) Object.assign(day, { leads: Number(r.leads), conversions: Number(r.conversions) })
  }
  for (const r of spendDays) {
    const day = byDay.get(r.day)
    if (day) day.spend = Number(r.amount)
  }
  return [...byDay].map(([date, v]) => ({ date, ...v }))
}

export function nextDay(isoDay: string, days = 1): string {
  const d = new Date(`${isoDay}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}
