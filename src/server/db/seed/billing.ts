import { TZDate } from '@date-fns/tz'
import { asc, eq, sql } from 'drizzle-orm'
import { type PaymentMethod, paymentMethods } from '../../../shared/billing'
import { dateInZone, invoiceTotals } from '../../../shared/invoice-math'
import { allocateInvoiceNumbers } from '../../modules/billing/invoice-number'
import type { Tx } from '../client'
import { services } from '../schema/appointments'
import { invoiceLines, invoices, payments } from '../schema/billing'
import { hospitals } from '../schema/hospitals'
import { patients } from '../schema/patients'
import { createRng, type Rng } from './patients'

/*
 * The demo's invoices (issue 26): about 200 per hospital over the last year, in every status
 * (paid by every method, part-paid, pending, overdue, a few cancelled with reasons), lines from
 * the hospital's catalogue (mostly exempt Bills of Supply, some Tax Invoices with taxable goods,
 * two inter-state with IGST), numbered through the invoice counters (one upsert per financial
 * year, sequences in date order) so numbers stay gapless per financial year.
 */

const INVOICES = 200
const DAY = 86_400_000

const cancelReasons = [
  'Billed to the wrong patient',
  'Duplicate invoice',
  'Patient chose the insurance desk instead',
  'Service not given: appointment missed',
]

function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)] as T
}

function reference(rng: Rng, method: PaymentMethod): string | null {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rng() * 10)).join('')
  switch (method) {
    case 'cash':
      return null
    case 'upi':
      return `UPI/${digits(12)}`
    case 'card':
      return `AUTH ${digits(6)}`
    case 'bank_transfer':
      return `NEFT/HDFCN${digits(10)}`
    case 'insurance':
      return `Claim ${pick(rng, ['STAR', 'HDFCERGO', 'ICICILOM', 'NIACL'])}-${digits(7)}`
  }
}

type Draft = typeof invoices.$inferInsert & {
  lines: Omit<typeof invoiceLines.$inferInsert, 'hospitalId' | 'invoiceId'>[]
  pays: Omit<typeof payments.$inferInsert, 'hospitalId' | 'invoiceId'>[]
}

/** Runs inside the demo seed's tenant transaction for `hospitalId` (clinic.ts). */
export async function seedDemoInvoices(
  tx: Tx,
  hospitalId: string,
  clinic: 'general' | 'dental',
  now: Date,
): Promise<number> {
  const [existing] = await tx.select({ id: invoices.id }).from(invoices).limit(1)
  if (existing) return 0
  // hospitals is a platform table: read it as the seed's own role, then back to the tenant.
  await tx.execute(sql`set local role none`)
  const [hospital] = await tx
    .select({
      prefix: hospitals.invoicePrefix,
      stateCode: hospitals.stateCode,
      timeZone: hospitals.timeZone,
    })
    .from(hospitals)
    .where(eq(hospitals.id, hospitalId))
  await tx.execute(sql`select set_config('role', 'app_user', true)`)
  if (!hospital) return 0
  const catalogue = await tx.select().from(services).orderBy(asc(services.name))
  const people = await tx
    .select({ id: patients.id, name: patients.name, createdAt: patients.createdAt })
    .from(patients)
    .orderBy(asc(patients.createdAt), asc(patients.id))
    .limit(160)
  const exempt = catalogue.filter((s) => s.gstRate === 0)
  const taxable = catalogue.filter((s) => s.gstRate > 0)
  if (people.length === 0 || exempt.length === 0) return 0

  const rng = createRng(clinic === 'dental' ? 2627 : 2626)
  const zone = hospital.timeZone
  const today = dateInZone(now, zone)
  const otherState = hospital.stateCode === '29' ? '27' : '29'
  const drafts: Draft[] = []
  let interStateLeft = 2
  for (let i = 0; i < INVOICES; i++) {
    // Spread over the patients' months (the oldest came 240 days ago), a little denser lately;
    // office hours in the hospital zone.
    const daysAgo = Math.floor(235 * Math.pow(rng(), 1.3))
    const day = new TZDate(now.getTime() - daysAgo * DAY, zone)
    const created = new TZDate(
      day.getFullYear(),
      day.getMonth(),
      day.getDate(),
      9 + Math.floor(rng() * 10),
      Math.floor(rng() * 60),
      zone,
    )
    const createdAt = new Date(Math.min(created.getTime(), now.getTime() - (INVOICES - i) * 1000))
    // A patient registered before the invoice (issue 40: records come after the patient).
    const known = people.filter((p) => p.createdAt.getTime() < createdAt.getTime())
    const from = known.length ? known : people.slice(0, 1)
    const patient = from[Math.floor(rng() * from.length)] as (typeof people)[number]
    if (!known.length) createdAt.setTime(patient.createdAt.getTime() + 3_600_000)
    const issueDate = dateInZone(createdAt, zone)
    const dueDate = dateInZone(
      new Date(createdAt.getTime() + pick(rng, [0, 7, 7, 15, 30]) * DAY),
      zone,
    )
    const withGoods = taxable.length > 0 && rng() < 0.18
    const interState = withGoods && i >= 30 && interStateLeft-- > 0
    const count = 1 + Math.floor(rng() * (withGoods ? 2 : 3))
    const chosen = Array.from({ length: count }, () => pick(rng, exempt))
    if (withGoods) chosen.push(pick(rng, taxable))
    const lines = [...new Map(chosen.map((s) => [s.id, s])).values()].map((s) => {
      const quantity = s.gstRate > 0 ? 1 + Math.floor(rng() * 3) : 1
      const discount = rng() < 0.1 ? Math.round((s.defaultPrice * quantity) / 10) : 0
      return { service: s, quantity, unitPrice: s.defaultPrice, discount, gstRate: s.gstRate }
    })
    const totals = invoiceTotals(lines, interState)
    const draft: Draft = {
      hospitalId,
      invoiceNumber: '',
      financialYear: '',
      sequence: 0,
      patientId: patient.id,
      patientName: patient.name,
      patientStateCode: interState ? otherState : hospital.stateCode,
      kind: totals.kind,
      status: 'pending',
      subtotal: totals.subtotal,
      discountTotal: totals.discountTotal,
      taxableTotal: totals.taxableTotal,
      cgst: totals.cgst,
      sgst: totals.sgst,
      igst: totals.igst,
      amount: totals.amount,
      amountPaid: 0,
      issueDate,
      dueDate,
      createdAt,
      updatedAt: createdAt,
      lines: lines.map((l, n) => ({
        lineNo: n + 1,
        serviceId: l.service.id,
        name: l.service.name,
        code: l.service.code,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        discount: l.discount,
        gstRate: l.gstRate,
        taxableValue: totals.lines[n]?.taxableValue ?? 0,
        tax: totals.lines[n]?.tax ?? 0,
        total: totals.lines[n]?.total ?? 0,
      })),
      pays: [],
    }
    settle(draft, rng, i, dueDate < today, now)
    drafts.push(draft)
  }
  drafts.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime())
  for (const list of groupByFinancialYear(drafts).values()) {
    const numbers = await allocateInvoiceNumbers(tx, {
      hospitalId,
      prefix: hospital.prefix ?? 'INV',
      issueDate: (list[0] as Draft).issueDate,
      count: list.length,
    })
    list.forEach((d, n) => {
      d.invoiceNumber = numbers.numberAt(n)
      d.financialYear = numbers.financialYear
      d.sequence = numbers.first + n
    })
  }
  const ids = await tx
    .insert(invoices)
    .values(drafts.map(invoiceRow))
    .returning({ id: invoices.id })
  await tx
    .insert(invoiceLines)
    .values(
      drafts.flatMap((d, n) =>
        d.lines.map((l) => ({ ...l, hospitalId, invoiceId: ids[n]?.id ?? '' })),
      ),
    )
  const pays = drafts.flatMap((d, n) =>
    d.pays.map((p) => ({ ...p, hospitalId, invoiceId: ids[n]?.id ?? '' })),
  )
  if (pays.length) await tx.insert(payments).values(pays)
  return drafts.length
}

function groupByFinancialYear(drafts: Draft[]): Map<string, Draft[]> {
  const map = new Map<string, Draft[]>()
  for (const d of drafts) {
    const y = Number(d.issueDate.slice(0, 4))
    const key = String(Number(d.issueDate.slice(5, 7)) >= 4 ? y : y - 1)
    const list = map.get(key) ?? []
    list.push(d)
    map.set(key, list)
  }
  return map
}

/** The invoice's own columns of a draft. */
function invoiceRow(d: Draft): typeof invoices.$inferInsert {
  const row: Partial<Draft> = { ...d }
  delete row.lines
  delete row.pays
  return row as typeof invoices.$inferInsert
}

/** Gives a draft its status and payments: most past-due ones paid, some overdue or cancelled. */
function settle(d: Draft, rng: Rng, i: number, pastDue: boolean, now: Date): void {
  const created = (d.createdAt as Date).getTime()
  const roll = rng()
  const method = paymentMethods[i % paymentMethods.length] as PaymentMethod
  const payAt = (days: number) =>
    new Date(Math.min(created + days * DAY + 3_600_000, now.getTime() - 60_000))
  const pay = (amount: number, at: Date, m: PaymentMethod = method) =>
    d.pays.push({ amount, method: m, reference: reference(rng, m), paidAt: at, createdAt: at })
  if (roll < 0.04) {
    d.status = 'cancelled'
    d.cancelledAt = new Date(Math.min(created + 2 * 3_600_000, now.getTime() - 60_000))
    d.cancelReason = pick(rng, cancelReasons)
    return
  }
  const paidShare = pastDue ? 0.78 : 0.45
  if (roll < 0.04 + paidShare) {
    const at = payAt(Math.floor(rng() * 5))
    if (rng() < 0.12 && d.amount >= 200) {
      const first = Math.round(d.amount / 2)
      pay(first, payAt(0), 'cash')
      pay(d.amount - first, at)
    } else pay(d.amount, at)
    d.status = 'paid'
    d.amountPaid = d.amount
    d.paidAt = at
    return
  }
  // Open: some with a part payment; past due ones are overdue.
  if (rng() < 0.25 && d.amount >= 200) {
    const part = Math.round(d.amount * pick(rng, [0.25, 0.4, 0.5]))
    pay(part, payAt(0))
    d.amountPaid = part
  }
  d.status = pastDue ? 'overdue' : 'pending'
}
