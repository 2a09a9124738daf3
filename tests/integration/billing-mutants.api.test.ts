import { type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createInvoice as createInvoiceService,
  TAXABLE_NEEDS_GSTIN,
} from '../../src/server/modules/billing/invoices.service'
import { updateInvoiceStatus } from '../../src/server/modules/billing/payments.service'
import { formatMoney } from '../../src/shared/money'
import {
  createInvoiceInput,
  type CreateInvoiceInput,
  type InvoiceDetail,
  updateInvoiceStatusInput,
} from '../../src/shared/schemas/billing'
import { addDoctor, addPatient, booking, call, dayFromToday } from '../support/appointments'
import { billingCall, createInvoice, invoicePayload, isoDateIn } from '../support/billing'
import { expectError } from '../support/http'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-appointments-billing mutation part (stryker/groups.mjs, docs/decisions/024):
// invoices.service.ts and payments.service.ts. Each test pins what a mutant of those files
// changes and the broader billing tests leave unchecked: the exact refusals, the stored columns
// the detail does not show (created_by, appointment, the payment's recorder), the audit rows,
// the state-code rule's edges and the boundaries (a due date of today, a payment of the whole
// balance, an overdue invoice).

let t: TestApp
let admin: string
let receptionist: string
let hospitalA: string
let adminId: string
let receptionistId: string
let platformId: string
let patient: string
const patientName = 'Ishita Banerjee'
let otherPatient: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  adminId = await userIdOf(t.db, demoEmail('admin'))
  receptionistId = await userIdOf(t.db, demoEmail('receptionist'))
  const [platform] = await queryRows<{ id: string }>(
    t.db,
    sql`select id from users where hospital_id is null limit 1`,
  )
  platformId = platform!.id
  patient = (await addPatient(t.db, hospitalA, { name: patientName })).id
  otherPatient = (await addPatient(t.db, hospitalA, { name: 'Rohan Kulkarni' })).id
})
afterAll(async () => {
  await t?.close()
})

const post = (payload: unknown, cookie = admin) =>
  billingCall(t.app, cookie, 'POST', '/api/invoices', payload)
const patch = (id: string, body: unknown, cookie = admin) =>
  billingCall(t.app, cookie, 'PATCH', `/api/invoices/${id}/status`, body)

/** A 400's message and its one issue. */
function expectInvalid(res: Awaited<ReturnType<typeof post>>, path: string, message: string) {
  const body = expectError(res, 400, 'VALIDATION')
  expect(body.message).toBe(`Invalid input: ${path}: ${message}`)
  expect(body.issues).toEqual([{ path, message }])
}

/** A timestamp column as JS milliseconds (raw rows bring timestamps as text). */
const epochMs = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`

const invoiceRow = async (id: string) =>
  (
    await queryRows<{
      created_by: string | null
      appointment_id: string | null
      patient_name: string
      patient_state_code: string | null
      notes: string | null
      financial_year: string
      sequence: number
      invoice_number: string
      created_at: number
      updated_at: number
      paid_at: number | null
      cancelled_at: number | null
      status: string
      hospital_id: string
    }>(
      t.db,
      sql`select *, ${epochMs(sql`created_at`)} as created_at, ${epochMs(sql`updated_at`)} as updated_at,
          ${epochMs(sql`paid_at`)} as paid_at, ${epochMs(sql`cancelled_at`)} as cancelled_at
          from invoices where id = ${id}`,
    )
  )[0]!

const auditOf = (id: string) =>
  queryRows<{
    action: string
    entity_type: string
    summary: string
    actor_user_id: string | null
    impersonator_user_id: string | null
    hospital_id: string
  }>(
    t.db,
    sql`select action, entity_type, summary, actor_user_id, impersonator_user_id, hospital_id
        from audit_events where entity_id = ${id} order by created_at, action`,
  )

const taxable = { name: 'Knee brace', code: '9021', quantity: 1, unitPrice: 100_000, gstRate: 12 }

describe('createInvoice', () => {
  it('a due date of today in the hospital zone is accepted; yesterday is refused with its field message', async () => {
    const today = await post({ ...invoicePayload(patient), dueDate: isoDateIn(0) })
    expect(today.statusCode, today.body).toBe(201)
    expect(today.json<InvoiceDetail>().dueDate).toBe(isoDateIn(0))
    const past = await post({ ...invoicePayload(patient), dueDate: isoDateIn(-1) })
    expectInvalid(past, 'dueDate', 'Due date cannot be before today')
  })

  it("stores who created it, the patient's name and state, the notes, the number's year and sequence", async () => {
    const res = await post({
      ...invoicePayload(patient),
      notes: 'Review after two weeks',
    })
    expect(res.statusCode, res.body).toBe(201)
    const inv = res.json<InvoiceDetail>()
    const row = await invoiceRow(inv.id)
    expect(row.created_by).toBe(adminId)
    expect(row.hospital_id).toBe(hospitalA)
    expect(row.patient_name).toBe(patientName)
    expect(row.notes).toBe('Review after two weeks')
    expect(row.appointment_id).toBeNull()
    // No state given: the hospital's (Maharashtra, 27).
    expect(row.patient_state_code).toBe('27')
    expect(inv.patientStateCode).toBe('27')
    const [, year, seq] = inv.invoiceNumber.split('/')
    expect(row.financial_year).toBe(year)
    expect(row.sequence).toBe(Number(seq))
    expect(row.status).toBe('pending')
  })

  it('the same state gives CGST + SGST; another state IGST; a hospital with no state code never IGST', async () => {
    const same = await createInvoice(t.app, admin, {
      ...invoicePayload(patient),
      lines: [taxable],
      patientStateCode: '27',
    })
    expect(same).toMatchObject({ cgst: 6_000, sgst: 6_000, igst: 0, amount: 112_000 })
    const other = await createInvoice(t.app, admin, {
      ...invoicePayload(patient),
      lines: [taxable],
      patientStateCode: '29',
    })
    expect(other).toMatchObject({ cgst: 0, sgst: 0, igst: 12_000, patientStateCode: '29' })
    await queryRows(t.db, sql`update hospitals set state_code = null where id = ${hospitalA}`)
    try {
      const noHospitalState = await createInvoice(t.app, admin, {
        ...invoicePayload(patient),
        lines: [taxable],
        patientStateCode: '29',
      })
      expect(noHospitalState).toMatchObject({ cgst: 6_000, sgst: 6_000, igst: 0 })
      expect(noHospitalState.patientStateCode).toBe('29')
      const neither = await createInvoice(t.app, admin, {
        ...invoicePayload(patient),
        lines: [taxable],
      })
      expect(neither).toMatchObject({ igst: 0, patientStateCode: null })
    } finally {
      await queryRows(t.db, sql`update hospitals set state_code = '27' where id = ${hospitalA}`)
    }
  })

  it("taxable lines without the hospital's GSTIN: 409 with the Settings hint; a Bill of Supply needs none", async () => {
    const [h] = await queryRows<{ gstin: string }>(
      t.db,
      sql`select gstin from hospitals where id = ${hospitalA}`,
    )
    await queryRows(t.db, sql`update hospitals set gstin = null where id = ${hospitalA}`)
    try {
      const res = await post({ ...invoicePayload(patient), lines: [taxable] })
      expect(expectError(res, 409, 'CONFLICT').message).toBe(TAXABLE_NEEDS_GSTIN)
      expect((await post(invoicePayload(patient))).statusCode).toBe(201)
    } finally {
      await queryRows(t.db, sql`update hospitals set gstin = ${h!.gstin} where id = ${hospitalA}`)
    }
  })

  it('names what was not found: the patient, a service, an appointment', async () => {
    const nobody = '00000000-0000-4000-8000-000000000000'
    expect(expectError(await post(invoicePayload(nobody)), 404, 'NOT_FOUND').message).toBe(
      'Patient not found',
    )
    const service = await post({
      ...invoicePayload(patient),
      lines: [{ serviceId: nobody, name: 'X', quantity: 1, unitPrice: 100, gstRate: 0 }],
    })
    expect(expectError(service, 404, 'NOT_FOUND').message).toBe('Service not found')
    const appointment = await post({ ...invoicePayload(patient), appointmentId: nobody })
    expect(expectError(appointment, 404, 'NOT_FOUND').message).toBe('Appointment not found')
  })

  it('two lines of one service are one look-up, and each line keeps its service, code and number', async () => {
    const [svc] = await queryRows<{ id: string; name: string }>(
      t.db,
      sql`select id, name from services where hospital_id = ${hospitalA} order by name limit 1`,
    )
    const res = await post({
      ...invoicePayload(patient),
      lines: [
        {
          serviceId: svc!.id,
          name: svc!.name,
          code: '999312',
          quantity: 1,
          unitPrice: 30_000,
          gstRate: 0,
        },
        {
          serviceId: svc!.id,
          name: svc!.name,
          code: '999312',
          quantity: 2,
          unitPrice: 30_000,
          discount: 5_000,
          gstRate: 0,
        },
        { name: 'Dressing', quantity: 1, unitPrice: 15_000, gstRate: 0 },
      ],
    })
    expect(res.statusCode, res.body).toBe(201)
    const inv = res.json<InvoiceDetail>()
    expect(
      inv.lines.map((l) => [l.lineNo, l.serviceId, l.code, l.quantity, l.discount, l.total]),
    ).toEqual([
      [1, svc!.id, '999312', 1, 0, 30_000],
      [2, svc!.id, '999312', 2, 5_000, 55_000],
      [3, null, null, 1, 0, 15_000],
    ])
    // A known service beside an unknown one is still refused.
    const mixed = await post({
      ...invoicePayload(patient),
      lines: [
        { serviceId: svc!.id, name: svc!.name, quantity: 1, unitPrice: 100, gstRate: 0 },
        {
          serviceId: '00000000-0000-4000-8000-000000000001',
          name: 'X',
          quantity: 1,
          unitPrice: 100,
          gstRate: 0,
        },
      ],
    })
    expectError(mixed, 404, 'NOT_FOUND')
  })

  it("an appointment is linked when it is the patient's, and refused with a field message when it is another's", async () => {
    const doctor = await addDoctor(t.db, hospitalA, 'Dr. Meera Pillai')
    const made = await call(
      t,
      receptionist,
      'POST',
      '/api/appointments',
      booking(doctor, patient, dayFromToday(3), '10:30'),
    )
    expect(made.statusCode, made.body).toBe(201)
    const appointmentId = made.json<{ id: string }>().id
    const linked = await createInvoice(t.app, admin, { ...invoicePayload(patient), appointmentId })
    expect((await invoiceRow(linked.id)).appointment_id).toBe(appointmentId)
    const wrong = await post({ ...invoicePayload(otherPatient), appointmentId })
    expectInvalid(wrong, 'appointmentId', "The appointment is another patient's")
  })

  it('audits the creation with the number, patient and amount, its actor and impersonator; a clock sets created_at', async () => {
    const now = new Date(Date.now() - 2 * 86_400_000)
    const payload: CreateInvoiceInput = {
      ...invoicePayload(patient),
      lines: [{ name: 'OPD consultation', quantity: 1, unitPrice: 123_456, gstRate: 0 }],
    }
    const inv = await createInvoiceService({
      db: t.db,
      hospitalId: hospitalA,
      userId: receptionistId,
      impersonatorUserId: platformId,
      now,
      input: createInvoiceInput.parse(payload),
    })
    expect(inv.issueDate).toBe(isoDateIn(-2))
    const row = await invoiceRow(inv.id)
    expect(row.created_at).toBe(now.getTime())
    expect(row.updated_at).toBe(now.getTime())
    expect(await auditOf(inv.id)).toEqual([
      {
        action: 'invoice.created',
        entity_type: 'invoice',
        summary: `Created invoice ${inv.invoiceNumber} for ${patientName}: ${formatMoney(123_456)}`,
        actor_user_id: receptionistId,
        impersonator_user_id: platformId,
        hospital_id: hospitalA,
      },
    ])
  })
})

describe('updateInvoiceStatus', () => {
  it('paying the exact balance makes it paid; the payment keeps its recorder, time and no reference', async () => {
    const inv = await createInvoice(t.app, admin, invoicePayload(patient))
    const res = await patch(
      inv.id,
      { status: 'paid', method: 'cash', amount: inv.amount },
      receptionist,
    )
    expect(res.statusCode, res.body).toBe(200)
    const paid = res.json<InvoiceDetail>()
    expect(paid).toMatchObject({ status: 'paid', balance: 0, amountPaid: inv.amount })
    expect(paid.payments).toMatchObject([{ amount: inv.amount, method: 'cash', reference: null }])
    const [payment] = await queryRows<{
      recorded_by: string
      paid_at: number
      hospital_id: string
    }>(
      t.db,
      sql`select recorded_by, ${epochMs(sql`paid_at`)} as paid_at, hospital_id from payments where invoice_id = ${inv.id}`,
    )
    expect(payment!.recorded_by).toBe(receptionistId)
    expect(payment!.hospital_id).toBe(hospitalA)
    const row = await invoiceRow(inv.id)
    expect(row.paid_at).toBe(payment!.paid_at)
    expect(new Date(paid.paidAt!).getTime()).toBe(payment!.paid_at)
  })

  it('an overdue invoice takes a part payment and stays overdue, then is paid', async () => {
    const inv = await createInvoice(t.app, admin, invoicePayload(patient))
    await queryRows(t.db, sql`update invoices set status = 'overdue' where id = ${inv.id}`)
    const part = await patch(inv.id, { status: 'paid', method: 'upi', amount: 20_000 })
    expect(part.statusCode, part.body).toBe(200)
    expect(part.json<InvoiceDetail>()).toMatchObject({
      status: 'overdue',
      paidAt: null,
      balance: 30_000,
    })
    expect((await invoiceRow(inv.id)).paid_at).toBeNull()
    const rest = await patch(inv.id, { status: 'paid', method: 'card' })
    expect(rest.json<InvoiceDetail>()).toMatchObject({ status: 'paid', balance: 0 })
  })

  it('an overdue invoice can be cancelled', async () => {
    const inv = await createInvoice(t.app, admin, invoicePayload(patient))
    await queryRows(t.db, sql`update invoices set status = 'overdue' where id = ${inv.id}`)
    const res = await patch(inv.id, { status: 'cancelled', reason: 'Waived by the doctor' })
    expect(res.json<InvoiceDetail>()).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Waived by the doctor',
    })
  })

  it('says why a payment or cancellation is refused', async () => {
    const inv = await createInvoice(t.app, admin, invoicePayload(patient))
    const over = await patch(inv.id, { status: 'paid', method: 'cash', amount: inv.amount + 1 })
    expectInvalid(
      over,
      'amount',
      `The payment is more than the balance of ${formatMoney(inv.amount)}`,
    )
    await patch(inv.id, { status: 'paid', method: 'cash', amount: 10_000 })
    const cancelPart = await patch(inv.id, { status: 'cancelled', reason: 'Duplicate' })
    expect(expectError(cancelPart, 409, 'INVALID_TRANSITION').message).toBe(
      'This invoice has payments recorded: it cannot be cancelled',
    )
    await patch(inv.id, { status: 'paid', method: 'cash' })
    const payPaid = await patch(inv.id, { status: 'paid', method: 'cash' })
    expect(expectError(payPaid, 409, 'INVALID_TRANSITION').message).toBe(
      'This invoice is paid: it cannot be marked paid',
    )
    const cancelPaid = await patch(inv.id, { status: 'cancelled', reason: 'Duplicate' })
    expect(expectError(cancelPaid, 409, 'INVALID_TRANSITION').message).toBe(
      'This invoice is paid: it cannot be cancelled',
    )
    const other = await createInvoice(t.app, admin, invoicePayload(patient))
    await patch(other.id, { status: 'cancelled', reason: 'Duplicate' })
    const payCancelled = await patch(other.id, { status: 'paid', method: 'cash' })
    expect(expectError(payCancelled, 409, 'INVALID_TRANSITION').message).toBe(
      'This invoice is cancelled: it cannot be marked paid',
    )
  })

  it('a free invoice has nothing left to pay', async () => {
    const inv = await createInvoice(t.app, admin, {
      ...invoicePayload(patient),
      lines: [{ name: 'Follow-up (free)', quantity: 1, unitPrice: 0, gstRate: 0 }],
    })
    expect(inv.amount).toBe(0)
    const res = await patch(inv.id, { status: 'paid', method: 'cash' })
    expect(expectError(res, 409, 'INVALID_TRANSITION').message).toBe(
      'This invoice has nothing left to pay',
    )
    expect(await queryRows(t.db, sql`select 1 from payments where invoice_id = ${inv.id}`)).toEqual(
      [],
    )
  })

  it('audits part payments, the final payment and a cancellation, with a clock for every time', async () => {
    const inv = await createInvoice(t.app, admin, invoicePayload(patient))
    const base = Date.now()
    const at = (n: number) => new Date(base + n * 60_000)
    const opts = {
      db: t.db,
      hospitalId: hospitalA,
      userId: adminId,
      impersonatorUserId: platformId,
    }
    await updateInvoiceStatus({
      ...opts,
      id: inv.id,
      now: at(1),
      change: updateInvoiceStatusInput.parse({
        status: 'paid',
        method: 'upi',
        amount: 12_345,
        reference: 'UPI/1',
      }),
    })
    const part = await invoiceRow(inv.id)
    expect(part.updated_at).toBe(at(1).getTime())
    expect(part.paid_at).toBeNull()
    const done = await updateInvoiceStatus({
      ...opts,
      id: inv.id,
      now: at(2),
      change: updateInvoiceStatusInput.parse({ status: 'paid', method: 'bank_transfer' }),
    })
    expect(done.paidAt).toBe(at(2).toISOString())
    expect(done.payments.map((p) => [p.amount, p.paidAt])).toEqual([
      [12_345, at(1).toISOString()],
      [50_000 - 12_345, at(2).toISOString()],
    ])
    const row = await invoiceRow(inv.id)
    expect(row.updated_at).toBe(at(2).getTime())

    const other = await createInvoice(t.app, admin, invoicePayload(patient))
    const cancelled = await updateInvoiceStatus({
      ...opts,
      id: other.id,
      now: at(3),
      change: updateInvoiceStatusInput.parse({ status: 'cancelled', reason: 'Entered twice' }),
    })
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelReason: 'Entered twice' })
    const cancelledRow = await invoiceRow(other.id)
    expect(cancelledRow.cancelled_at).toBe(at(3).getTime())
    expect(cancelledRow.updated_at).toBe(at(3).getTime())

    const audit = (action: string, summary: string) => ({
      action,
      entity_type: 'invoice',
      summary,
      actor_user_id: adminId,
      impersonator_user_id: platformId,
      hospital_id: hospitalA,
    })
    expect((await auditOf(inv.id)).slice(1)).toEqual([
      audit(
        'invoice.payment_recorded',
        `Part payment on invoice ${inv.invoiceNumber}: ${formatMoney(12_345)} by upi`,
      ),
      audit(
        'invoice.paid',
        `Paid invoice ${inv.invoiceNumber}: ${formatMoney(50_000 - 12_345)} by bank_transfer`,
      ),
    ])
    expect((await auditOf(other.id)).slice(1)).toEqual([
      audit('invoice.cancelled', `Cancelled invoice ${other.invoiceNumber}: Entered twice`),
    ])
  })
})
