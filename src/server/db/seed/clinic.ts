import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Tx } from '../client'
import { bookingSettings, services } from '../schema/appointments'
import { hospitals } from '../schema/hospitals'
import { seedDemoInvoices } from './billing'
import type { DemoHospital } from './demo'

/**
 * The demo's clinic set-up (issue 26), per demo hospital: GST details, a UPI id and the public
 * booking page turned on, and a service catalogue with SAC/HSN codes, prices and GST rates
 * typical of its kind of clinic (healthcare services exempt, SAC 9993; a few taxable goods and
 * cosmetic services). Runs in the demo seed's transaction; a hospital with services already is
 * left alone, so it is idempotent.
 */

interface DemoService {
  name: string
  code: string
  /** Rupees. */
  price: number
  gstRate: 0 | 5 | 12 | 18
  minutes: 15 | 30 | 45 | 60
  bookable: boolean
}

const general: DemoService[] = [
  { name: 'OPD consultation', code: '999312', price: 500, gstRate: 0, minutes: 15, bookable: true },
  {
    name: 'Follow-up consultation',
    code: '999312',
    price: 300,
    gstRate: 0,
    minutes: 15,
    bookable: true,
  },
  {
    name: 'Specialist consultation',
    code: '999312',
    price: 900,
    gstRate: 0,
    minutes: 30,
    bookable: true,
  },
  // A consultation per specialty (demo-staff.ts: each doctor's services).
  {
    name: 'Orthopaedic consultation',
    code: '999312',
    price: 900,
    gstRate: 0,
    minutes: 30,
    bookable: true,
  },
  {
    name: 'Gynaecology consultation',
    code: '999312',
    price: 800,
    gstRate: 0,
    minutes: 30,
    bookable: true,
  },
  {
    name: 'Paediatric consultation',
    code: '999312',
    price: 600,
    gstRate: 0,
    minutes: 15,
    bookable: true,
  },
  {
    name: 'Dermatology consultation',
    code: '999312',
    price: 800,
    gstRate: 0,
    minutes: 15,
    bookable: true,
  },
  { name: 'Dental check-up', code: '999312', price: 400, gstRate: 0, minutes: 15, bookable: true },
  {
    name: 'X-ray (chest PA view)',
    code: '999317',
    price: 650,
    gstRate: 0,
    minutes: 15,
    bookable: false,
  },
  {
    name: 'Blood test (CBC)',
    code: '999317',
    price: 350,
    gstRate: 0,
    minutes: 15,
    bookable: false,
  },
  { name: 'Lipid profile', code: '999317', price: 700, gstRate: 0, minutes: 15, bookable: false },
  {
    name: 'Physiotherapy session',
    code: '999315',
    price: 800,
    gstRate: 0,
    minutes: 45,
    bookable: true,
  },
  { name: 'Dressing', code: '999314', price: 250, gstRate: 0, minutes: 15, bookable: false },
  {
    name: 'Medicines (pharmacy)',
    code: '3004',
    price: 420,
    gstRate: 12,
    minutes: 15,
    bookable: false,
  },
  { name: 'Knee brace', code: '9021', price: 1450, gstRate: 12, minutes: 15, bookable: false },
]

const dental: DemoService[] = [
  { name: 'OPD consultation', code: '999312', price: 400, gstRate: 0, minutes: 15, bookable: true },
  {
    name: 'Follow-up consultation',
    code: '999312',
    price: 250,
    gstRate: 0,
    minutes: 15,
    bookable: true,
  },
  {
    name: 'Dental cleaning (scaling)',
    code: '999312',
    price: 1500,
    gstRate: 0,
    minutes: 45,
    bookable: true,
  },
  {
    name: 'Tooth filling (composite)',
    code: '999312',
    price: 2000,
    gstRate: 0,
    minutes: 45,
    bookable: true,
  },
  {
    name: 'Root canal treatment',
    code: '999312',
    price: 6500,
    gstRate: 0,
    minutes: 60,
    bookable: true,
  },
  {
    name: 'Tooth extraction',
    code: '999312',
    price: 1200,
    gstRate: 0,
    minutes: 30,
    bookable: true,
  },
  {
    name: 'Orthodontic consultation',
    code: '999312',
    price: 600,
    gstRate: 0,
    minutes: 30,
    bookable: true,
  },
  { name: 'X-ray (IOPA)', code: '999317', price: 300, gstRate: 0, minutes: 15, bookable: false },
  {
    name: 'Teeth whitening (cosmetic)',
    code: '999312',
    price: 8000,
    gstRate: 18,
    minutes: 60,
    bookable: true,
  },
  {
    name: 'Mouthwash and toothpaste kit',
    code: '3306',
    price: 450,
    gstRate: 18,
    minutes: 15,
    bookable: false,
  },
]

/** GST details and UPI ids: Maharashtra (27) for Pune, Karnataka (29) for Bengaluru. */
/** With each, the grievance officer (DPDP Act 2023) shown on the booking page (issue 27). */
const settings: Record<
  string,
  | {
      gstin: string
      stateCode: string
      upiId: string
      grievanceName: string
      grievanceEmail: string
    }
  | undefined
> = {
  sanjeevani: {
    gstin: '27AABCS1429B1ZU',
    stateCode: '27',
    upiId: 'sanjeevanihospital@icici',
    grievanceName: 'Dr. Farah Khan',
    grievanceEmail: 'grievance@sanjeevanihospital.in',
  },
  smiledental: {
    gstin: '29AAKFS7781M1Z5',
    stateCode: '29',
    upiId: 'smiledental@hdfcbank',
    grievanceName: 'Naveen Gowda',
    grievanceEmail: 'privacy@smiledental.in',
  },
}

export async function seedDemoClinic(tx: Tx, demo: readonly DemoHospital[]): Promise<boolean> {
  await tx.execute(sql`set local role none`)
  const rows = await tx
    .select({ id: hospitals.id, email: hospitals.email })
    .from(hospitals)
    .where(
      inArray(
        hospitals.email,
        demo.map((h) => h.email),
      ),
    )
  let changed = false
  for (const h of demo) {
    const row = rows.find((r) => r.email === h.email)
    if (!row) continue
    await tx.execute(sql`set local role none`)
    const own = settings[h.key]
    // Only where unset: a re-run never overwrites what an admin saved in Settings → General.
    if (own)
      await tx
        .update(hospitals)
        .set(own)
        .where(and(eq(hospitals.id, row.id), isNull(hospitals.gstin)))
    await tx.execute(
      sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${row.id}, true)`,
    )
    const [done] = await tx.select({ id: services.id }).from(services).limit(1)
    if (done) continue
    const catalogue = h.clinic === 'dental' ? dental : general
    await tx.insert(services).values(
      catalogue.map((s) => ({
        hospitalId: row.id,
        name: s.name,
        code: s.code,
        defaultPrice: s.price * 100,
        gstRate: s.gstRate,
        durationMinutes: s.minutes,
        bookable: s.bookable,
      })),
    )
    // About 200 invoices over the last year, numbered through the counters (issue 26).
    await seedDemoInvoices(tx, row.id, h.clinic, new Date())
    await tx
      .insert(bookingSettings)
      .values({ hospitalId: row.id, enabled: true })
      .onConflictDoNothing()
    changed = true
  }
  await tx.execute(sql`set local role none`)
  return changed
}
