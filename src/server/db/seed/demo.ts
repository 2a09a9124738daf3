import { sql } from 'drizzle-orm'
import type { Auth } from '../../auth/auth'
import type { AppDb, Tx } from '../client'
import type { ObjectStorage } from '../../storage/storage'
import type { patients } from '../schema/patients'
import { completeDemo, demoComplete, type DemoSpec } from './demo-state'
import { type DemoLeads, generateLeads, type LeadPatient, type LeadStaff } from './leads'
import { seedDemoAppointments } from './appointments'
import { seedDemoCampaigns } from './campaigns'
import { seedDemoCallHistory } from './calls'
import { seedDemoLiveMonitoring } from './live-monitoring'
import { seedDemoClinic } from './clinic'
import { seedDemoBackups } from './backups'
import { seedDemoFaqs } from './faqs'
import { seedDemoInvitations } from './invitations'
import { seedDemoLeadGeneration } from './lead-generation'
import { seedDemoMessaging } from './messaging'
import { seedDemoPlatform } from './platform'
import { seedDemoTicketAttachment } from './support-attachments'
import { seedDemoSupportTickets } from './support-tickets'
import { createRng, generatePatients } from './patients'
import { demoStaff } from './demo-staff'
import { keepDemoCurrent } from './demo-shift'

export const demoHospitals = [
  {
    key: 'sanjeevani',
    region: 'pune' as const,
    clinic: 'general' as const,
    name: 'Sanjeevani Multispeciality Hospital, Pune',
    email: 'contact@sanjeevani.demo',
    phone: '+912025501234',
    address: 'Survey No. 12, Karve Road, Kothrud, Pune, Maharashtra 411038',
    hospitalType: 'general' as const,
    bedCapacity: 120,
    staffCount: 180,
    maxUsers: 50,
    plan: 'enterprise',
  },
  {
    key: 'smiledental',
    region: 'bengaluru' as const,
    clinic: 'dental' as const,
    name: 'Smile Dental Clinic, Bengaluru',
    email: 'hello@smiledental.demo',
    phone: '+918041234567',
    address: '#14, 100 Feet Road, Indiranagar, Bengaluru, Karnataka 560038',
    hospitalType: 'clinic' as const,
    bedCapacity: 0,
    staffCount: 12,
    maxUsers: 20,
    plan: 'professional',
  },
]
export type DemoHospital = (typeof demoHospitals)[number]

/** Patients the patient seed makes per demo hospital (over the last 240 days). */
export const GENERATED_PATIENTS_PER_DEMO_HOSPITAL = 60
/** Leads per demo hospital (over the last 60 days). */
export const LEADS_PER_DEMO_HOSPITAL = 300
/** Converted leads that became new patients (about as many more converted into recent patients). */
export const LEAD_PATIENTS_PER_DEMO_HOSPITAL = 30
/** Patients of a freshly seeded demo hospital: the patient seed's and the converted leads'. */
export const PATIENTS_PER_DEMO_HOSPITAL =
  GENERATED_PATIENTS_PER_DEMO_HOSPITAL + LEAD_PATIENTS_PER_DEMO_HOSPITAL
/** Recent patients (at most) that are found to have come from a lead. */
const PATIENTS_FROM_LEADS = 20

/** The advisory lock key of the demo seed (migrations use 16_0001). */
export const DEMO_SEED_LOCK_KEY = 16_0002n

export interface DemoUser {
  email: string
  /** Full names as people write them; a title stays in the name, never in the first name. */
  name: string
  role: string
  /** demoHospitals[].key, or null for the platform's super admin. */
  hospitalKey: string | null
  isSuperAdmin: boolean
  /** Days before the seed the account joined (hospital staff); the super admin: none. */
  joinedDaysAgo?: number
}

/** Every demo account: the super admin, then each hospital's staff (demo-staff.ts). */
export function demoUsers(): DemoUser[] {
  return [
    {
      email: 'superadmin@arogya.demo',
      name: 'Platform Admin',
      role: 'super_admin',
      hospitalKey: null,
      isSuperAdmin: true,
    },
    ...demoHospitals.flatMap((h) =>
      (demoStaff[h.key] ?? []).map((s) => ({
        email: `${s.local}@${h.key}.demo`,
        name: s.name,
        role: s.role,
        hospitalKey: h.key,
        isSuperAdmin: false,
        joinedDaysAgo: s.joinedDaysAgo,
      })),
    ),
  ]
}

export function demoLogins(): string[] {
  return demoUsers().map((u) => u.email)
}

/** The demo patients of one demo hospital, the same on every machine but for dates. */
export function demoPatients(
  hospital: DemoHospital,
  hospitalId: string,
  now: Date = new Date(),
): (typeof patients.$inferInsert)[] {
  return generatePatients(
    hospitalId,
    GENERATED_PATIENTS_PER_DEMO_HOSPITAL,
    createRng(2026 + demoHospitals.indexOf(hospital)),
    hospital.region,
    { now, clinic: hospital.clinic },
  )
}

/**
 * The demo leads of one demo hospital, their communications and the patients converted leads
 * became, given the hospital's patients and staff: the same on every machine but for ids and dates.
 */
export function demoLeads(
  hospital: DemoHospital,
  hospitalId: string,
  ctx: { patients: readonly LeadPatient[]; staff: readonly LeadStaff[]; now: Date },
): DemoLeads {
  return generateLeads(
    {
      hospitalId,
      hospital,
      patients: ctx.patients,
      staff: ctx.staff,
      now: ctx.now,
      count: LEADS_PER_DEMO_HOSPITAL,
      newPatients: LEAD_PATIENTS_PER_DEMO_HOSPITAL,
      fromPatients: PATIENTS_FROM_LEADS,
    },
    createRng(4100 + demoHospitals.indexOf(hospital)),
  )
}

/**
 * Makes sure the demo data is all there: hospitals, accounts (with the password), patient
 * counters, patients, leads (with their communications and converted patients) and lead settings. Returns true when it added anything, false when it was complete.
 *
 * One transaction under a transaction-scoped advisory lock (pooler safe): a start killed at
 * any moment leaves either no demo data or all of it, and two instances starting together
 * seed it once (the second waits, then finds it complete). A database with an earlier
 * version's partial demo gets the missing rows and keeps the rest; when a demo email belongs
 * to something else it throws DemoSeedConflict (demo-state.ts), saying what to do, and changes nothing.
 *
 * The password is hashed once, before the transaction (CPU work, no lock held); every demo
 * account created in this run gets that hash, as they all share the published password.
 */
export async function seedDemo(
  db: AppDb,
  auth: Auth,
  password: string,
  opts: {
    /** Called once the lock is held and something is missing, before the first write. */
    onSeeding?: () => void
    /** Where the demo ticket's attachment is written; without it no file is seeded (tests). */
    storage?: ObjectStorage
  } = {},
): Promise<boolean> {
  const spec: DemoSpec = {
    hospitals: demoHospitals,
    users: demoUsers(),
    patientsFor: demoPatients,
    leadsFor: demoLeads,
  }
  // A demo seeded weeks ago moves forward by the whole weeks (demo-shift.ts): today's
  // appointments and recent leads are there whenever it starts.
  await keepDemoCurrent(db, demoHospitals, DEMO_SEED_LOCK_KEY)
  if (await demoComplete(db, spec)) return false
  const passwordHash = await (await auth.$context).password.hash(password)
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_SEED_LOCK_KEY.toString()}::bigint)`)
    const now = new Date()
    const changed = await completeDemo(tx as Tx, spec, passwordHash, now, opts.onSeeding)
    // Messaging (issue 25): templates, notification settings, consents, reminders, messages.
    const messaging = await seedDemoMessaging(tx as Tx, demoHospitals, now)
    // Issue 26: GST details, UPI ids, service catalogues, the booking page.
    const clinic = await seedDemoClinic(tx as Tx, demoHospitals)
    // Issue 26: a fortnight of appointments around today, with reminders for those ahead.
    const booked = await seedDemoAppointments(tx as Tx, demoHospitals, now)
    // Issue 27: a couple of pending team invitations per hospital.
    const invited = await seedDemoInvitations(tx as Tx, demoHospitals, now)
    // Issue 27: hospitals on trial, past due and cancelled; onboarding tasks; the platform trail.
    const platform = await seedDemoPlatform(tx as Tx, demoHospitals, now)
    // Issue 28: two lead-generation requests for the first demo hospital.
    const leadGen = await seedDemoLeadGeneration(tx as Tx, demoHospitals, now)
    // Issue 28: the 8 pre-built FAQs for the first demo hospital, none for the other.
    const faqsAdded = await seedDemoFaqs(tx as Tx, demoHospitals)
    // Issue 28: three support tickets for the first hospital.
    const tickets = await seedDemoSupportTickets(tx as Tx, demoHospitals, now)
    // Issue 28: a small text file on one of them, through the storage module.
    const attached = opts.storage
      ? await seedDemoTicketAttachment(tx as Tx, demoHospitals, opts.storage)
      : false
    // Issue 28: marketing campaigns linked to the seeded leads' campaigns, in every status.
    const marketing = await seedDemoCampaigns(tx as Tx, demoHospitals, now)
    // Issue 29: a daily backup configuration (its first run a real backup) for the first hospital.
    const backups = await seedDemoBackups(tx as Tx, demoHospitals)
    // Issue 29: a week of staff activities and presence for Live Monitoring.
    const live = await seedDemoLiveMonitoring(tx as Tx, demoHospitals, now)
    // Issue 41: weeks 2-4 of calls and missed calls that became leads, every demo hospital.
    const callHistory = await seedDemoCallHistory(tx as Tx, demoHospitals, now)
    const added = [
      messaging,
      clinic,
      booked,
      invited,
      platform,
      leadGen,
      faqsAdded,
      tickets,
      backups,
    ]
    return added.includes(true) || marketing || attached || live || callHistory || changed
  })
}
