import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Invoice, InvoiceDetail, InvoiceList } from '../../src/shared/schemas/billing'
import { billingCall, createInvoice, invoicePayload, isoDateIn } from '../support/billing'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  type DemoRole,
  queryRows,
  type TestApp,
} from '../support/test-app'

let t: TestApp
const cookies: Record<string, string> = {}
let patientId: string
let smilePatientId: string

const roles: DemoRole[] = ['admin', 'doctor', 'nurse', 'receptionist', 'viewer']

async function firstPatient(cookie: string): Promise<string> {
  const res = await billingCall(t.app, cookie, 'GET', '/api/patients?limit=1')
  const [p] = res.json<{ id: string }[]>()
  if (!p) throw new Error('no seeded patient')
  return p.id
}

async function count(table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql.raw(`select count(*)::int as n from ${table}`),
  )
  return row?.n ?? 0
}

beforeAll(async () => {
  t = await createTestApp()
  for (const role of roles) cookies[role] = await login(t.app, demoEmail(role))
  cookies.smileAdmin = await login(t.app, demoEmail('admin', 'smiledental'))
  patientId = await firstPatient(cookies.admin!)
  smilePatientId = await firstPatient(cookies.smileAdmin!)
})
afterAll(async () => {
  await t?.close()
})

describe('creating invoices: the server computes every amount', () => {
  it('an exempt consultation is a Bill of Supply with no GST', async () => {
    const inv = await createInvoice(t.app, cookies.receptionist!, invoicePayload(patientId))
    expect(inv.kind).toBe('bill_of_supply')
    // An exempt line is exempt value, never taxable value (issue 40 item 3).
    expect([inv.subtotal, inv.taxableTotal, inv.cgst, inv.sgst, inv.igst, inv.amount]).toEqual([
      50_000, 0, 0, 0, 0, 50_000,
    ])
    expect(inv.exemptTotal).toBe(50_000)
    expect(inv.status).toBe('pending')
    expect(inv.balance).toBe(50_000)
    expect(inv.amountInWords).toBe('Rupees Five Hundred Only')
    expect(inv.services).toEqual([{ name: 'OPD consultation', price: 50_000 }])
    expect(inv.invoiceNumber).toMatch(/^[A-Z0-9]+\/\d{4}-\d{2}\/\d{6}$/)
    expect(inv.hospital.gstin).toBe('27AABCS1429B1ZU')
  })

  it('a taxable line makes a Tax Invoice with CGST + SGST in the same state', async () => {
    const inv = await createInvoice(
      t.app,
      cookies.admin!,
      invoicePayload(patientId, {
        lines: [
          { name: 'OPD consultation', code: '999312', quantity: 1, unitPrice: 50_000, gstRate: 0 },
          {
            name: 'Toothpaste kit',
            code: '3306',
            quantity: 3,
            unitPrice: 35_050,
            discount: 5_000,
            gstRate: 18,
          },
        ],
      }),
    )
    expect(inv.kind).toBe('tax_invoice')
    // 3 × 350.50 − 50 = 1001.50; 18 % = 180.27 → CGST 90.14 (the odd paisa) + SGST 90.13.
    expect(inv.lines[1]).toMatchObject({ taxableValue: 100_150, tax: 18_027, total: 118_177 })
    expect([inv.cgst, inv.sgst, inv.igst]).toEqual([9_014, 9_013, 0])
    expect(inv.subtotal).toBe(50_000 + 105_150)
    expect(inv.discountTotal).toBe(5_000)
    expect(inv.amount).toBe(50_000 + 118_177)
  })

  it('a patient in another state pays IGST', async () => {
    const inv = await createInvoice(
      t.app,
      cookies.admin!,
      invoicePayload(patientId, {
        patientStateCode: '29',
        lines: [{ name: 'Mouthwash', code: '3306', quantity: 2, unitPrice: 10_000, gstRate: 12 }],
      }),
    )
    expect([inv.cgst, inv.sgst, inv.igst, inv.amount]).toEqual([0, 0, 2_400, 22_400])
    expect(inv.patientStateCode).toBe('29')
  })

  it('a client total is refused as an unknown field, and nothing is stored', async () => {
    const before = await count('invoices')
    const res = await billingCall(t.app, cookies.admin, 'POST', '/api/invoices', {
      ...invoicePayload(patientId),
      amount: 1,
    })
    expect(issuePaths(res)).toEqual([''])
    expect(res.json<{ message: string }>().message).toMatch(/Unknown field\(s\): amount/)
    const lineTotal = await billingCall(t.app, cookies.admin, 'POST', '/api/invoices', {
      ...invoicePayload(patientId),
      lines: [{ name: 'X', quantity: 1, unitPrice: 100, gstRate: 0, total: 1 }],
    })
    expect(issuePaths(lineTotal)).toEqual(['lines.0'])
    expect(await count('invoices')).toBe(before)
  })

  it.each([
    ['zero quantity', { quantity: 0 }, 'lines.0.quantity'],
    ['negative quantity', { quantity: -2 }, 'lines.0.quantity'],
    ['fractional quantity', { quantity: 1.5 }, 'lines.0.quantity'],
    ['price over ₹1 crore', { unitPrice: 1_000_000_001 }, 'lines.0.unitPrice'],
    ['negative price', { unitPrice: -1 }, 'lines.0.unitPrice'],
    ['discount over the line', { quantity: 2, unitPrice: 100, discount: 201 }, 'lines.0.discount'],
    ['GST rate 28', { gstRate: 28 }, 'lines.0.gstRate'],
    ['a bad SAC code', { code: '99A3' }, 'lines.0.code'],
    ['an empty name', { name: '  ' }, 'lines.0.name'],
  ])('%s is a 400 that changes nothing', async (_label, line, path) => {
    const before = await count('invoices')
    const res = await billingCall(t.app, cookies.admin, 'POST', '/api/invoices', {
      ...invoicePayload(patientId),
      lines: [{ name: 'Line', quantity: 1, unitPrice: 100, gstRate: 0, ...line }],
    })
    expect(issuePaths(res)).toContain(path)
    expect(await count('invoices')).toBe(before)
  })

  it('a due date before today in the hospital zone, no lines, or 51 lines are 400', async () => {
    const past = await billingCall(t.app, cookies.admin, 'POST', '/api/invoices', {
      ...invoicePayload(patientId),
      dueDate: isoDateIn(-1),
    })
    expect(issuePaths(past)).toEqual(['dueDate'])
    const none = await billingCall(t.app, cookies.admin, 'POST', '/api/invoices', {
      ...invoicePayload(patientId),
      lines: [],
    })
    expect(issuePaths(none)).toEqual(['lines'])
    const many = await billingCall(t.app, cookies.admin, 'POST', '/api/invoices', {
      ...invoicePayload(patientId),
      lines: Array.from({ length: 51 }, () => ({
        name: 'X',
        quantity: 1,
        unitPrice: 1,
        gstRate: 0,
      })),
    })
    expect(issuePaths(many)).toEqual(['lines'])
  })

  it('an unknown patient, or another hospital’s patient or service, is a 404 that changes nothing', async () => {
    const before = await count('invoices')
    const counters = await queryRows(t.db, sql`select * from invoice_counters order by 1, 2`)
    const unknown = await billingCall(
      t.app,
      cookies.admin,
      'POST',
      '/api/invoices',
      invoicePayload('00000000-0000-4000-8000-000000000000'),
    )
    expectError(unknown, 404, 'NOT_FOUND')
    const theirs = await billingCall(
      t.app,
      cookies.admin,
      'POST',
      '/api/invoices',
      invoicePayload(smilePatientId),
    )
    expectError(theirs, 404, 'NOT_FOUND')
    const [service] = await queryRows<{ id: string }>(
      t.db,
      sql`select s.id from services s join hospitals h on h.id = s.hospital_id where h.email = 'hello@smiledental.demo' limit 1`,
    )
    const theirService = await billingCall(t.app, cookies.admin, 'POST', '/api/invoices', {
      ...invoicePayload(patientId),
      lines: [{ serviceId: service?.id, name: 'X', quantity: 1, unitPrice: 1, gstRate: 0 }],
    })
    expectError(theirService, 404, 'NOT_FOUND')
    expect(await count('invoices')).toBe(before)
    // A refused invoice leaves no gap: the counter rolled back with it.
    expect(await queryRows(t.db, sql`select * from invoice_counters order by 1, 2`)).toEqual(
      counters,
    )
  })
})

describe('hostile input', () => {
  it('taxable lines without a GSTIN are refused (409); exempt ones still bill', async () => {
    const [h] = await queryRows<{ id: string; gstin: string }>(
      t.db,
      sql`select id, gstin from hospitals where email = 'contact@sanjeevani.demo'`,
    )
    await queryRows(t.db, sql`update hospitals set gstin = null where id = ${h!.id}`)
    try {
      const res = await billingCall(t.app, cookies.admin, 'POST', '/api/invoices', {
        ...invoicePayload(patientId),
        lines: [{ name: 'Knee brace', code: '9021', quantity: 1, unitPrice: 145_000, gstRate: 12 }],
      })
      expectError(res, 409, 'CONFLICT')
      const exempt = await billingCall(
        t.app,
        cookies.admin,
        'POST',
        '/api/invoices',
        invoicePayload(patientId),
      )
      expect(exempt.statusCode).toBe(201)
    } finally {
      await queryRows(t.db, sql`update hospitals set gstin = ${h!.gstin} where id = ${h!.id}`)
    }
  })

  it('random bodies never get a 5xx and never store a broken invoice', async () => {
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const line = fc.record(
      {
        name: fc.oneof(fc.string(), fc.constant('Consultation')),
        quantity: fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double(), fc.string()),
        unitPrice: fc.oneof(fc.integer({ min: -10, max: 2_000_000_000 }), fc.constant(null)),
        discount: fc.oneof(fc.integer({ min: -10, max: 2_000_000_000 }), fc.constant(undefined)),
        gstRate: fc.constantFrom(0, 5, 12, 18, 28, '5', null),
        code: fc.oneof(fc.string(), fc.constant('9993')),
      },
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            patientId: fc.oneof(fc.constant(patientId), fc.uuid(), fc.string()),
            lines: fc.oneof(fc.array(line, { maxLength: 3 }), fc.anything()),
            dueDate: fc.oneof(fc.constant(isoDateIn(3)), fc.string()),
            notes: fc.oneof(fc.string(), fc.anything()),
          },
          { requiredKeys: [] },
        ),
        fc.anything(),
        async (body, status) => {
          const res = await billingCall(t.app, cookies.admin, 'POST', '/api/invoices', body)
          expect(res.statusCode).toBeLessThan(500)
          const patch = await billingCall(
            t.app,
            cookies.admin,
            'PATCH',
            `/api/invoices/${inv.id}/status`,
            status,
          )
          expect(patch.statusCode).toBeLessThan(500)
        },
      ),
      { numRuns: 60 },
    )
    const [bad] = await queryRows<{ n: number }>(
      t.db,
      // Taxable value is the taxable lines' value only; exempt lines add to the amount untaxed.
      sql`select count(*)::int as n from invoices i where amount <> taxable_total + cgst + sgst + igst
              + (select coalesce(sum(taxable_value), 0) from invoice_lines l where l.invoice_id = i.id and l.gst_rate = 0)
            or taxable_total <> (select coalesce(sum(taxable_value), 0) from invoice_lines l where l.invoice_id = i.id and l.gst_rate > 0)`,
    )
    expect(bad?.n).toBe(0)
  })
})

describe('numbers', () => {
  it('50 concurrent creates get 50 distinct consecutive numbers', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        billingCall(
          t.app,
          cookies.receptionist,
          'POST',
          '/api/invoices',
          invoicePayload(patientId),
        ),
      ),
    )
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(201))
    const seqs = results
      .map((r) => Number(r.json<InvoiceDetail>().invoiceNumber.split('/')[2]))
      .sort((a, b) => a - b)
    expect(new Set(seqs).size).toBe(50)
    expect(seqs.at(-1)! - seqs[0]!).toBe(49)
    // Gapless over the whole year: the sequences are exactly 1..N.
    const [row] = await queryRows<{ n: number; max: number; min: number }>(
      t.db,
      sql`select count(*)::int as n, max(sequence)::int as max, min(sequence)::int as min from invoices i join hospitals h on h.id = i.hospital_id where h.email = 'contact@sanjeevani.demo' and i.financial_year = (select max(financial_year) from invoices where hospital_id = h.id)`,
    )
    expect([row?.min, row?.max]).toEqual([1, row?.n])
  })
})

describe('payments and status', () => {
  it('mark paid by UPI with a reference: paid, paid_at, a payments row, audited', async () => {
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const res = await billingCall(
      t.app,
      cookies.receptionist,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      {
        status: 'paid',
        method: 'upi',
        reference: 'UPI/433912876541',
      },
    )
    expect(res.statusCode, res.body).toBe(200)
    const paid = res.json<InvoiceDetail>()
    expect(paid.status).toBe('paid')
    expect(paid.paidAt).not.toBeNull()
    expect(paid.balance).toBe(0)
    expect(paid.payments).toMatchObject([
      { amount: 50_000, method: 'upi', reference: 'UPI/433912876541' },
    ])
    const audit = await queryRows(
      t.db,
      sql`select action from audit_events where entity_id = ${inv.id} order by created_at`,
    )
    expect(audit.map((a) => (a as { action: string }).action)).toEqual([
      'invoice.created',
      'invoice.paid',
    ])
    // Paid is final.
    const again = await billingCall(
      t.app,
      cookies.admin,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      { status: 'paid', method: 'cash' },
    )
    expectError(again, 409, 'INVALID_TRANSITION')
    const cancel = await billingCall(
      t.app,
      cookies.admin,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      { status: 'cancelled', reason: 'Duplicate' },
    )
    expectError(cancel, 409, 'INVALID_TRANSITION')
  })

  it('a partial payment keeps it pending with a balance; the rest makes it paid; overpaying is refused', async () => {
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const part = await billingCall(
      t.app,
      cookies.admin,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      {
        status: 'paid',
        method: 'cash',
        amount: 20_000,
      },
    )
    expect(part.json<InvoiceDetail>()).toMatchObject({
      status: 'pending',
      amountPaid: 20_000,
      balance: 30_000,
      paidAt: null,
    })
    const over = await billingCall(
      t.app,
      cookies.admin,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      {
        status: 'paid',
        method: 'card',
        amount: 30_001,
      },
    )
    expect(issuePaths(over)).toEqual(['amount'])
    const rest = await billingCall(
      t.app,
      cookies.admin,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      {
        status: 'paid',
        method: 'card',
        reference: 'AUTH 771201',
      },
    )
    const done = rest.json<InvoiceDetail>()
    expect(done).toMatchObject({ status: 'paid', amountPaid: 50_000, balance: 0 })
    expect(done.payments.map((p) => [p.amount, p.method])).toEqual([
      [20_000, 'cash'],
      [30_000, 'card'],
    ])
  })

  it('cancel needs a reason and keeps the number; cancelled is final', async () => {
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const noReason = await billingCall(
      t.app,
      cookies.admin,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      { status: 'cancelled' },
    )
    expect(issuePaths(noReason)).toEqual(['reason'])
    const res = await billingCall(t.app, cookies.admin, 'PATCH', `/api/invoices/${inv.id}/status`, {
      status: 'cancelled',
      reason: 'Billed to the wrong patient',
    })
    expect(res.json<InvoiceDetail>()).toMatchObject({
      status: 'cancelled',
      invoiceNumber: inv.invoiceNumber,
      cancelReason: 'Billed to the wrong patient',
      balance: 0,
    })
    const pay = await billingCall(t.app, cookies.admin, 'PATCH', `/api/invoices/${inv.id}/status`, {
      status: 'paid',
      method: 'cash',
    })
    expectError(pay, 409, 'INVALID_TRANSITION')
  })

  it('an invoice with a part payment cannot be cancelled', async () => {
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    await billingCall(t.app, cookies.admin, 'PATCH', `/api/invoices/${inv.id}/status`, {
      status: 'paid',
      method: 'cash',
      amount: 100,
    })
    const res = await billingCall(t.app, cookies.admin, 'PATCH', `/api/invoices/${inv.id}/status`, {
      status: 'cancelled',
      reason: 'x',
    })
    expectError(res, 409, 'INVALID_TRANSITION')
  })

  it('bad status bodies are 400', async () => {
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const url = `/api/invoices/${inv.id}/status`
    for (const body of [
      { status: 'overdue' },
      { status: 'paid', method: 'cheque' },
      { status: 'paid', method: 'cash', amount: 0 },
      { status: 'paid', method: 'cash', extra: 1 },
      { status: 'cancelled', reason: 'x'.repeat(501) },
    ]) {
      expectError(await billingCall(t.app, cookies.admin, 'PATCH', url, body), 400, 'VALIDATION')
    }
  })
})

describe('roles', () => {
  it.each(roles)('%s', async (role) => {
    const canWrite = role === 'admin' || role === 'receptionist'
    const list = await billingCall(t.app, cookies[role], 'GET', '/api/invoices')
    expect(list.statusCode).toBe(200)
    const create = await billingCall(
      t.app,
      cookies[role],
      'POST',
      '/api/invoices',
      invoicePayload(patientId),
    )
    expect(create.statusCode).toBe(canWrite ? 201 : 403)
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const pay = await billingCall(t.app, cookies[role], 'PATCH', `/api/invoices/${inv.id}/status`, {
      status: 'paid',
      method: 'cash',
    })
    expect(pay.statusCode).toBe(canWrite ? 200 : 403)
    const pdf = await billingCall(t.app, cookies[role], 'GET', `/api/invoices/${inv.id}/pdf`)
    expect(pdf.statusCode).toBe(200)
  })

  it('signed out is 401', async () => {
    expectError(await billingCall(t.app, undefined, 'GET', '/api/invoices'), 401)
    expectError(
      await billingCall(t.app, undefined, 'POST', '/api/invoices', invoicePayload(patientId)),
      401,
    )
  })
})

describe('cross-tenant', () => {
  it("another hospital gets 404 for this hospital's invoice and changes nothing", async () => {
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const smile = cookies.smileAdmin
    expectError(await billingCall(t.app, smile, 'GET', `/api/invoices/${inv.id}`), 404, 'NOT_FOUND')
    expectError(
      await billingCall(t.app, smile, 'GET', `/api/invoices/${inv.id}/pdf`),
      404,
      'NOT_FOUND',
    )
    expectError(
      await billingCall(t.app, smile, 'PATCH', `/api/invoices/${inv.id}/status`, {
        status: 'paid',
        method: 'cash',
      }),
      404,
      'NOT_FOUND',
    )
    expectError(
      await billingCall(t.app, smile, 'PATCH', `/api/invoices/${inv.id}/status`, {
        status: 'cancelled',
        reason: 'x',
      }),
      404,
      'NOT_FOUND',
    )
    const theirs = await billingCall(
      t.app,
      smile,
      'GET',
      `/api/invoices?search=${encodeURIComponent(inv.invoiceNumber)}&limit=100`,
    )
    expect(theirs.json<InvoiceList>().invoices.map((i: Invoice) => i.id)).not.toContain(inv.id)
    const mine = await billingCall(t.app, cookies.viewer, 'GET', `/api/invoices/${inv.id}`)
    expect(mine.json<InvoiceDetail>()).toMatchObject({ status: 'pending', amountPaid: 0 })
  })
})
