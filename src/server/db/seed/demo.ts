import { count, eq } from 'drizzle-orm'
import type { Auth } from '../../auth/auth'
import { insertCredentialUser } from '../../auth/credential-user'
import type { AppDb } from '../client'
import { user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { patients } from '../schema/patients'
import { withPlatform, withTenant } from '../tenant'
import { staffRoles } from '../../../shared/roles'
import { splitName } from '../../../shared/names'
import { createPatientNumberCounter } from '../../modules/patients/patient-numbers'
import { createRng, generatePatients } from './patients'

export const demoHospitals = [
  {
    key: 'sanjeevani',
    region: 'pune' as const,
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

/** Full names as people write them; a title stays in the name, never in the first name. */
const staffNames: Record<string, string> = {
  admin: 'Anita Kulkarni',
  doctor: 'Dr. Rajesh Iyer',
  nurse: 'Sunita Pawar',
  receptionist: 'Pooja Shetty',
  viewer: 'Vikas Rao',
}

export const PATIENTS_PER_DEMO_HOSPITAL = 60

export function demoLogins(): string[] {
  return [
    'superadmin@arogya.demo',
    ...demoHospitals.flatMap((h) => staffRoles.map((r) => `${r}@${h.key}.demo`)),
  ]
}

async function createUser(
  db: AppDb,
  auth: Auth,
  fields: {
    email: string
    /** 'Dr. Rajesh Iyer' is stored as name 'Dr. Rajesh Iyer', first name 'Rajesh', last 'Iyer'. */
    name: string
    role: string
    hospitalId: string | null
    isSuperAdmin?: boolean
  },
  password: string,
): Promise<void> {
  const ctx = await auth.$context
  const hash = await ctx.password.hash(password)
  const { name, ...rest } = fields
  const { firstName, lastName } = splitName(name)
  await withPlatform(db, async (tx) => {
    const id = await insertCredentialUser(
      tx,
      { ...rest, firstName, lastName, emailVerified: true },
      hash,
    )
    // insertCredentialUser names the user 'first last'; keep the title in the full name.
    await tx.update(user).set({ name }).where(eq(user.id, id))
  })
}

/** Seeds the demo data on an empty database. Returns false when data already exists. */
export async function seedDemo(db: AppDb, auth: Auth, password: string): Promise<boolean> {
  const [existing] = await withPlatform(db, (tx) => tx.select({ n: count() }).from(hospitals))
  if ((existing?.n ?? 0) > 0) return false

  await createUser(
    db,
    auth,
    {
      email: 'superadmin@arogya.demo',
      name: 'Platform Admin',
      role: 'super_admin',
      hospitalId: null,
      isSuperAdmin: true,
    },
    password,
  )

  for (const [index, h] of demoHospitals.entries()) {
    const { key, region, ...values } = h
    const [row] = await withPlatform(db, (tx) =>
      tx
        .insert(hospitals)
        .values({ ...values, subscriptionStatus: 'active' })
        .returning({ id: hospitals.id }),
    )
    if (!row) throw new Error('seed: hospital not created')
    for (const role of staffRoles) {
      await createUser(
        db,
        auth,
        {
          email: `${role}@${key}.demo`,
          name: staffNames[role] ?? 'Staff Member',
          role,
          hospitalId: row.id,
        },
        password,
      )
    }
    const rows = generatePatients(
      row.id,
      PATIENTS_PER_DEMO_HOSPITAL,
      createRng(2026 + index),
      region,
    )
    await createPatientNumberCounter({ db, hospitalId: row.id, hospitalName: h.name })
    await withTenant(db, { hospitalId: row.id, userId: null }, (tx) =>
      tx.insert(patients).values(rows),
    )
  }
  return true
}
