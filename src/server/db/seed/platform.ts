import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { onboardingTasks, platformAuditEvents } from '../schema/platform'
import type { DemoHospital } from './demo'

/**
 * The Super Admin Dashboard's demo (issue 27): three more hospitals, one on trial, one past
 * due and one cancelled (no staff accounts: they only fill the platform's tabs; their emails
 * are not '.demo' so the demo's own counts stay as they are), onboarding tasks in a mix of
 * states (the demo hospitals' own data completed most of theirs through the triggers of
 * drizzle/0023), and a platform audit trail. Runs in the demo seed's transaction; a database
 * that has the extra hospitals already is left alone, so it is idempotent.
 */

const DAY = 24 * 3600 * 1000

interface ExtraHospital {
  name: string
  email: string
  phone: string
  address: string
  hospitalType: 'general' | 'specialty' | 'clinic' | 'diagnostic_center'
  plan: 'starter' | 'professional' | 'enterprise'
  maxUsers: number
  pricePerUser: number
  status: 'trial' | 'past_due' | 'cancelled'
  /** Days before the seed ran. */
  createdDaysAgo: number
  /** Onboarding tasks the super admin marked complete. */
  completed: string[]
}

export const extraDemoHospitals: readonly ExtraHospital[] = [
  {
    name: 'Arogyam Ayurveda Wellness Centre, Kochi',
    email: 'care@arogyam-ayurveda.example',
    phone: '+914842345678',
    address: 'MG Road, Ernakulam, Kochi, Kerala 682016',
    hospitalType: 'clinic',
    plan: 'starter',
    maxUsers: 5,
    pricePerUser: 240000,
    status: 'trial',
    createdDaysAgo: 5,
    completed: [],
  },
  {
    name: 'Shree Diagnostics, Ahmedabad',
    email: 'accounts@shreediagnostics.example',
    phone: '+917926401234',
    address: 'CG Road, Navrangpura, Ahmedabad, Gujarat 380009',
    hospitalType: 'diagnostic_center',
    plan: 'professional',
    maxUsers: 20,
    pricePerUser: 199900,
    status: 'past_due',
    createdDaysAgo: 75,
    completed: ['connect_meta', 'setup_messaging', 'add_team'],
  },
  {
    name: 'Nirmal Eye Care, Jaipur',
    email: 'admin@nirmaleyecare.example',
    phone: '+911412567890',
    address: 'Tonk Road, Malviya Nagar, Jaipur, Rajasthan 302017',
    hospitalType: 'specialty',
    plan: 'starter',
    maxUsers: 5,
    pricePerUser: 240000,
    status: 'cancelled',
    createdDaysAgo: 150,
    completed: ['setup_messaging', 'import_patients'],
  },
]

export async function seedDemoPlatform(
  tx: Tx,
  demo: readonly DemoHospital[],
  now: Date,
): Promise<boolean> {
  await tx.execute(sql`set local role none`)
  const [existing] = await tx
    .select({ id: hospitals.id })
    .from(hospitals)
    .where(
      inArray(
        hospitals.email,
        extraDemoHospitals.map((h) => h.email),
      ),
    )
    .limit(1)
  if (existing) return false
  const [admin] = await tx
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, 'superadmin@arogya.demo'))
  const actorUserId = admin?.id ?? null
  const audit: (typeof platformAuditEvents.$inferInsert)[] = []
  for (const h of extraDemoHospitals) {
    const createdAt = new Date(now.getTime() - h.createdDaysAgo * DAY)
    const [row] = await tx
      .insert(hospitals)
      .values({
        name: h.name,
        email: h.email,
        adminEmail: h.email,
        phone: h.phone,
        address: h.address,
        hospitalType: h.hospitalType,
        plan: h.plan,
        maxUsers: h.maxUsers,
        pricePerUser: h.pricePerUser,
        subscriptionStatus: h.status,
        trialEndsAt: h.status === 'trial' ? new Date(createdAt.getTime() + 14 * DAY) : null,
        createdAt,
        updatedAt: createdAt,
      })
      .returning({ id: hospitals.id })
    if (!row) throw new Error('seed: extra hospital not created')
    if (h.completed.length)
      await tx
        .update(onboardingTasks)
        .set({ completedAt: new Date(createdAt.getTime() + 3 * DAY), completedBy: actorUserId })
        .where(
          and(eq(onboardingTasks.hospitalId, row.id), inArray(onboardingTasks.kind, h.completed)),
        )
    audit.push({
      actorUserId,
      hospitalId: row.id,
      action: 'hospital.created',
      entityType: 'hospital',
      entityId: row.id,
      summary: `Added ${h.name} (${h.email}) on the ${h.plan} plan`,
      createdAt,
    })
    if (h.status !== 'trial')
      audit.push({
        actorUserId,
        hospitalId: row.id,
        action: 'hospital.status_changed',
        entityType: 'hospital',
        entityId: row.id,
        summary: `${h.name}: status Active → ${h.status === 'past_due' ? 'Past due' : 'Cancelled'}`,
        createdAt: new Date(now.getTime() - Math.floor(h.createdDaysAgo / 3) * DAY),
      })
  }
  // A demo hospital's messaging set-up, confirmed by the platform on a call.
  const first = demo[0]
  if (first) {
    const [h] = await tx
      .select({ id: hospitals.id, name: hospitals.name })
      .from(hospitals)
      .where(eq(hospitals.email, first.email))
    if (h) {
      const done = await tx
        .update(onboardingTasks)
        .set({ completedAt: new Date(now.getTime() - 2 * DAY), completedBy: actorUserId })
        .where(
          and(
            eq(onboardingTasks.hospitalId, h.id),
            eq(onboardingTasks.kind, 'setup_messaging'),
            isNull(onboardingTasks.completedAt),
          ),
        )
        .returning({ id: onboardingTasks.id })
      if (done[0])
        audit.push({
          actorUserId,
          hospitalId: h.id,
          action: 'onboarding.completed',
          entityType: 'onboarding_task',
          entityId: done[0].id,
          summary: `${h.name}: marked 'Set up messaging' as completed`,
          createdAt: new Date(now.getTime() - 2 * DAY),
        })
    }
  }
  await tx.insert(platformAuditEvents).values(audit)
  return true
}
