import { eq, sql } from 'drizzle-orm'
import { estimateLeads, oneTimeCostRupees } from '../../../shared/lead-generation'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { leadGenerationRequests } from '../schema/lead-generation'

const DAY = 86_400_000

/** The first demo hospital's two lead-generation requests (issue 28): one live, one waiting. */
const demoRequests = [
  {
    rupees: 5000,
    hasCreative: false,
    needsCreative: true,
    hasVideo: true,
    needsVideoEditing: false,
    notes:
      'Knee and hip replacement camp for patients over 55 in Kothrud, Karve Nagar and Warje. Ads in Marathi and English, please.',
    status: 'active',
    statusNote: 'Live on Facebook and Instagram from Monday; first leads expected within 48 hours.',
    daysAgo: 21,
    changedDaysAgo: 14,
  },
  {
    rupees: 2500,
    hasCreative: true,
    needsCreative: false,
    hasVideo: false,
    needsVideoEditing: true,
    notes: 'Monsoon fever and dengue check-up package. We have posters; need a 30-second reel.',
    status: 'requested',
    statusNote: null,
    daysAgo: 2,
    changedDaysAgo: null,
  },
] as const

/**
 * Adds the requests when the first demo hospital has none. Runs in the seed's transaction and
 * leaves the role as it found it (the connecting role).
 */
export async function seedDemoLeadGeneration(
  tx: Tx,
  demo: readonly { key: string; email: string }[],
  now: Date,
): Promise<boolean> {
  const first = demo[0]
  if (!first) return false
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const [hospital] = await tx
    .select({ id: hospitals.id })
    .from(hospitals)
    .where(eq(hospitals.email, first.email))
  if (!hospital) return false
  const [admin] = await tx
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, `admin@${first.key}.demo`))
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${hospital.id}, true)`,
  )
  const [any] = await tx
    .select({ id: leadGenerationRequests.id })
    .from(leadGenerationRequests)
    .limit(1)
  if (!any)
    await tx.insert(leadGenerationRequests).values(
      demoRequests.map((r) => {
        const estimate = estimateLeads(r.rupees)
        const createdAt = new Date(now.getTime() - r.daysAgo * DAY)
        return {
          hospitalId: hospital.id,
          dailyBudget: r.rupees * 100,
          hasCreative: r.hasCreative,
          needsCreative: r.needsCreative,
          hasVideo: r.hasVideo,
          needsVideoEditing: r.needsVideoEditing,
          notes: r.notes,
          expectedLeadsMin: estimate.perDayMin,
          expectedLeadsMax: estimate.perDayMax,
          oneTimeCost: oneTimeCostRupees(r),
          status: r.status,
          statusNote: r.statusNote,
          statusChangedAt:
            r.changedDaysAgo === null ? null : new Date(now.getTime() - r.changedDaysAgo * DAY),
          createdBy: admin?.id ?? null,
          createdAt,
          updatedAt: createdAt,
        }
      }),
    )
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return !any
}
