import { inArray, sql } from 'drizzle-orm'
import type { Tx } from '../client'
import { campaigns, campaignSpend } from '../schema/campaigns'
import { hospitals } from '../schema/hospitals'

/*
 * Demo marketing campaigns (issue 28): a handful per demo hospital in every status, named after
 * the seeded leads' own campaigns ('Free Dental Check-up Camp – Nov', a CSV camp's sign-ups), so
 * their cards count real leads; plus a draft that has none yet. Spend is recorded per day, spread
 * evenly over the days the campaign ran (campaign_spend), so the details chart has a spend line.
 */

const DAY_MS = 86_400_000
const IST_MS = 5.5 * 3_600_000

const audiences: Record<string, Record<string, string | string[]>[]> = {
  pune: [
    { age: '30-65', gender: 'All', locations: ['Kothrud', 'Karve Nagar', 'Warje'] },
    { age: '45+', locations: ['Pune', 'Pimpri-Chinchwad'], interests: ['Health', 'Yoga'] },
    { age: '25-40', gender: 'Female', locations: ['Kothrud', 'Baner', 'Aundh'] },
  ],
  bengaluru: [
    { age: '18-45', locations: ['Indiranagar', 'Domlur', 'HAL 2nd Stage'] },
    { age: '22-35', interests: ['Fashion', 'Weddings'], locations: 'Bengaluru East' },
    { age: '30-60', gender: 'All', locations: ['Indiranagar', 'Koramangala'] },
  ],
}

const drafts: Record<string, { name: string; type: 'instagram' | 'whatsapp'; budget: number }> = {
  sanjeevani: { name: 'Monsoon Fever Clinic – Jul', type: 'whatsapp', budget: 4_000_000 },
  smiledental: { name: 'Kids Dental Week – Dec', type: 'instagram', budget: 2_500_000 },
}

interface LeadGroup {
  campaign: string
  form: string | null
  n: number
  instagram: number
  csv: boolean
  first: string
  last: string
}

const istDay = (iso: string | Date) =>
  new Date(new Date(iso).getTime() + IST_MS).toISOString().slice(0, 10)

/** Adds the demo campaigns where a demo hospital has none. Runs in the seed's transaction. */
export async function seedDemoCampaigns(
  tx: Tx,
  demo: readonly { key: string; email: string; region: string }[],
  now: Date,
): Promise<boolean> {
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const rows = await tx
    .select({ id: hospitals.id, email: hospitals.email })
    .from(hospitals)
    .where(
      inArray(
        hospitals.email,
        demo.map((h) => h.email),
      ),
    )
  const today = istDay(now)
  let changed = false
  for (const h of demo) {
    const row = rows.find((r) => r.email === h.email)
    if (!row) continue
    await tx.execute(
      sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${row.id}, true)`,
    )
    const [any] = await tx.select({ id: campaigns.id }).from(campaigns).limit(1)
    if (!any) {
      const groups = (
        (await tx.execute(sql`
          select campaign, min(meta_form_id) as form, count(*)::int as n,
            (count(*) filter (where source = 'meta-instagram'))::int as instagram,
            bool_or(source = 'csv-import') as csv, min(created_at)::text as first,
            max(created_at)::text as last
          from leads where campaign is not null and source in ('meta-facebook', 'meta-instagram', 'csv-import')
          group by campaign order by max(created_at) desc`)) as unknown as { rows: LeadGroup[] }
      ).rows
      const meta = groups.filter((g) => !g.csv).slice(0, 4)
      const csv = groups.filter((g) => g.csv).slice(0, 1)
      const statuses = ['active', 'active', 'paused', 'completed'] as const
      const picked = [
        ...meta.map((g, i) => ({ g, status: statuses[i] ?? 'completed' })),
        ...csv.map((g) => ({ g, status: 'completed' as const })),
      ]
      const audience = audiences[h.region] ?? audiences.pune ?? []
      for (const [i, { g, status }] of picked.entries()) {
        const start = istDay(g.first)
        const lastDay = istDay(g.last)
        const cpl = 15_000 + ((i * 7_919) % 25_000) // ₹150–₹400 a lead
        const budget = Math.ceil((g.n * cpl * 1.25) / 500_000) * 500_000
        const spent = status === 'completed' ? Math.round(budget * 0.94) : Math.round(budget * 0.55)
        const end =
          status === 'completed'
            ? lastDay
            : istDay(new Date(new Date(`${start}T00:00:00Z`).getTime() + 75 * DAY_MS))
        const [created] = await tx
          .insert(campaigns)
          .values({
            hospitalId: row.id,
            name: g.campaign,
            type: g.csv ? 'offline' : g.instagram * 2 > g.n ? 'instagram' : 'facebook',
            status,
            budget,
            spent,
            startDate: start,
            endDate: end < start ? start : end,
            targetAudience: audience[i % audience.length] ?? {},
            metaFormId: g.form,
            leadCampaign: g.campaign,
            utmCampaign: g.csv ? null : g.campaign.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
            createdAt: new Date(new Date(g.first).getTime() - 2 * DAY_MS),
          })
          .returning({ id: campaigns.id })
        if (!created) continue
        const runTo = lastDay < today ? lastDay : today
        const days: string[] = []
        for (let t = new Date(`${start}T00:00:00Z`).getTime(); ; t += DAY_MS) {
          const d = new Date(t).toISOString().slice(0, 10)
          if (d > runTo) break
          days.push(d)
        }
        if (days.length === 0) days.push(start)
        const each = Math.floor(spent / days.length)
        await tx.insert(campaignSpend).values(
          days.map((day, k) => ({
            hospitalId: row.id,
            campaignId: created.id,
            day,
            amount: k === days.length - 1 ? spent - each * (days.length - 1) : each,
          })),
        )
      }
      const draft = drafts[h.key]
      if (draft) {
        const start = istDay(new Date(now.getTime() + 10 * DAY_MS))
        await tx.insert(campaigns).values({
          hospitalId: row.id,
          name: draft.name,
          type: draft.type,
          status: 'draft',
          budget: draft.budget,
          startDate: start,
          endDate: istDay(new Date(now.getTime() + 40 * DAY_MS)),
          targetAudience: audience[0] ?? {},
          leadCampaign: draft.name,
          createdAt: new Date(now.getTime() - DAY_MS),
        })
      }
      changed = true
    }
    await tx.execute(sql`select set_config('role', 'none', true)`)
  }
  return changed
}
