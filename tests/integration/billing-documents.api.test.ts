import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paiseToDecimal, upiPayUri } from '../../src/shared/invoice-math'
import type {
  CatalogueService,
  InvoiceDetail,
  InvoiceList,
  InvoiceSummary,
  RevenueMonth,
} from '../../src/shared/schemas/billing'
import { withPlatform, withTenant } from '../../src/server/db/tenant'
import { enqueue } from '../../src/server/jobs/queue'
import { registerHandler } from '../../src/server/jobs/registry'
import { Worker } from '../../src/server/jobs/worker'
import { createInvoice as createInvoiceService } from '../../src/server/modules/billing/invoices.service'
import {
  markOverdue,
  OVERDUE_JOB,
  OVERDUE_SWEEP_JOB,
  overdueJob,
  overdueSweepJob,
} from '../../src/server/modules/billing/overdue-job'
import {
  billingCall,
  createInvoice,
  invoicePayload,
  isoDateIn,
  pdfQrText,
  pdfText,
} from '../support/billing'
import { expectError, issuePaths } from '../support/http'
import { waitFor } from '../support/jobs'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

let t: TestApp
const cookies: Record<string, string> = {}
let sanjeevaniId: string
let smileId: string
let patientId: string

beforeAll(async () => {
  t = await createTestApp()
  cookies.admin = await login(t.app, demoEmail('admin'))
  cookies.nurse = await login(t.app, demoEmail('nurse'))
  cookies.viewer = await login(t.app, demoEmail('viewer'))
  cookies.smileAdmin = await login(t.app, demoEmail('admin', 'smiledental'))
  sanjeevaniId = await hospitalIdOf(t.db, 'sanjeevani')
  smileId = await hospitalIdOf(t.db, 'smiledental')
  const res = await billingCall(t.app, cookies.admin, 'GET', '/api/patients?limit=1')
  patientId = res.json<{ id: string }[]>()[0]!.id
})
afterAll(async () => {
  await t?.close()
})

describe('the demo seed', () => {
  it('gives each demo hospital about 200 invoices in every status, numbered gaplessly per year', async () => {
    for (const id of [sanjeevaniId, smileId]) {
      const statuses = await queryRows<{ status: string; n: number }>(
        t.db,
        sql`select status, count(*)::int as n from invoices where hospital_id = ${id} group by status`,
      )
      expect(statuses.map((s) => s.status).sort()).toEqual([
        'cancelled',
        'overdue',
        'paid',
        'pending',
      ])
      expect(statuses.reduce((s, r) => s + r.n, 0)).toBeGreaterThanOrEqual(200)
      const methods = await queryRows<{ method: string }>(
        t.db,
        sql`select distinct method from payments where hospital_id = ${id} order by 1`,
      )
      expect(methods.map((m) => m.method)).toEqual([
        'bank_transfer',
        'card',
        'cash',
        'insurance',
        'upi',
      ])
      const gaps = await queryRows<{ fy: string; n: number; max: number }>(
        t.db,
        sql`select financial_year as fy, count(*)::int as n, max(sequence)::int as max from invoices where hospital_id = ${id} group by 1`,
      )
      for (const g of gaps) expect(g.max).toBe(g.n)
      const [kinds] = await queryRows<{ tax: number; igst: number }>(
        t.db,
        sql`select count(*) filter (where kind = 'tax_invoice')::int as tax, count(*) filter (where igst > 0)::int as igst from invoices where hospital_id = ${id}`,
      )
      expect(kinds?.tax).toBeGreaterThan(0)
      expect(kinds?.igst).toBeGreaterThan(0)
    }
  })
})

describe('PDF', () => {
  it('a Tax Invoice shows the number, GSTIN, lines, taxes, totals and words; its QR pays the balance by UPI', async () => {
    const inv = await createInvoice(
      t.app,
      cookies.admin!,
      invoicePayload(patientId, {
        notes: 'Take the medicines after food.',
        lines: [
          {
            name: 'OPD consultation',
            code: '999312',
            quantity: 1,
            unitPrice: 1_00_000_00,
            gstRate: 0,
          },
          { name: 'Knee brace', code: '9021', quantity: 1, unitPrice: 17_857_14, gstRate: 12 },
        ],
      }),
    )
    const res = await billingCall(t.app, cookies.viewer, 'GET', `/api/invoices/${inv.id}/pdf`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${inv.invoiceNumber.replace(/\//g, '-')}.pdf"`,
    )
    const pdf = res.rawPayload
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/)
    const text = await pdfText(pdf)
    expect(text).toContain('Tax Invoice')
    expect(text).toContain(inv.invoiceNumber)
    expect(text).toContain('GSTIN: 27AABCS1429B1ZU')
    expect(text).toContain('Knee brace')
    expect(text).toContain('9021')
    expect(text).toContain(`CGST @ 6% ₹1,071.43`)
    expect(text).toContain(`SGST @ 6% ₹1,071.43`)
    expect(text).toContain('Total ₹1,20,000.00')
    expect(inv.amount).toBe(1_20_000_00)
    expect(text).toContain('Rupees One Lakh Twenty Thousand Only')
    expect(text).toContain('Take the medicines after food.')
    const hospital = await queryRows<{ name: string }>(
      t.db,
      sql`select name from hospitals where id = ${sanjeevaniId}`,
    )
    expect(await pdfQrText(pdf)).toBe(
      upiPayUri({
        vpa: 'sanjeevanihospital@icici',
        payee: hospital[0]!.name,
        amountPaise: inv.amount,
        invoiceNumber: inv.invoiceNumber,
      }),
    )
    expect(await pdfQrText(pdf)).toContain(
      `&am=120000.00&cu=INR&tn=${encodeURIComponent(inv.invoiceNumber)}`,
    )
  })

  it('a Bill of Supply has no GST lines, and a paid invoice no QR', async () => {
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    await billingCall(t.app, cookies.admin, 'PATCH', `/api/invoices/${inv.id}/status`, {
      status: 'paid',
      method: 'cash',
    })
    const res = await billingCall(t.app, cookies.admin, 'GET', `/api/invoices/${inv.id}/pdf`)
    const text = await pdfText(res.rawPayload)
    expect(text).toContain('Bill of Supply')
    expect(text).not.toContain('CGST')
    expect(text).toContain('Rupees Five Hundred Only')
    expect(await pdfQrText(res.rawPayload)).toBeNull()
  })

  it('bad and foreign ids', async () => {
    expectError(
      await billingCall(t.app, cookies.admin, 'GET', '/api/invoices/not-a-uuid/pdf'),
      400,
      'VALIDATION',
    )
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    expectError(
      await billingCall(t.app, cookies.smileAdmin, 'GET', `/api/invoices/${inv.id}/pdf`),
      404,
      'NOT_FOUND',
    )
  })
})

describe('list, summary, revenue and CSV', () => {
  it('the list is newest first, filters by status and search, and pages by cursor', async () => {
    const first = await billingCall(t.app, cookies.admin, 'GET', '/api/invoices?limit=20')
    const page = first.json<InvoiceList>()
    expect(page.invoices).toHaveLength(20)
    const times = page.invoices.map((i) => i.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
    const next = await billingCall(
      t.app,
      cookies.admin,
      'GET',
      `/api/invoices?limit=20&cursor=${page.nextCursor}`,
    )
    const ids = new Set(page.invoices.map((i) => i.id))
    for (const i of next.json<InvoiceList>().invoices) expect(ids.has(i.id)).toBe(false)
    const overdue = await billingCall(
      t.app,
      cookies.admin,
      'GET',
      '/api/invoices?status=overdue&limit=100',
    )
    expect(overdue.json<InvoiceList>().invoices.every((i) => i.status === 'overdue')).toBe(true)
    const one = page.invoices[3]!
    const found = await billingCall(
      t.app,
      cookies.admin,
      'GET',
      `/api/invoices?search=${encodeURIComponent(one.invoiceNumber)}`,
    )
    expect(found.json<InvoiceList>().invoices.map((i) => i.id)).toEqual([one.id])
    expect(
      issuePaths(await billingCall(t.app, cookies.admin, 'GET', '/api/invoices?status=open')),
    ).toEqual(['status'])
    expect(
      issuePaths(await billingCall(t.app, cookies.admin, 'GET', '/api/invoices?limit=101')),
    ).toEqual(['limit'])
    expect(
      issuePaths(await billingCall(t.app, cookies.admin, 'GET', '/api/invoices?sort=x')),
    ).toEqual(['query'])
  })

  it('the summary cards add up the hospital’s invoices', async () => {
    const res = await billingCall(t.app, cookies.viewer, 'GET', '/api/invoices/summary')
    const [sql_] = await queryRows<{ paid: string; pending: string; overdue: string; n: number }>(
      t.db,
      sql`select sum(amount_paid) as paid,
            coalesce(sum(amount - amount_paid) filter (where status = 'pending'), 0) as pending,
            coalesce(sum(amount - amount_paid) filter (where status = 'overdue'), 0) as overdue,
            count(*)::int as n from invoices where hospital_id = ${sanjeevaniId}`,
    )
    expect(res.json<InvoiceSummary>()).toEqual({
      totalRevenue: Number(sql_?.paid),
      pending: Number(sql_?.pending),
      overdue: Number(sql_?.overdue),
      totalInvoices: sql_?.n,
    })
  })

  it('revenue: 12 months in the hospital zone, oldest first, zeros included', async () => {
    const res = await billingCall(t.app, cookies.admin, 'GET', '/api/invoices/revenue')
    expect(res.statusCode, res.body).toBe(200)
    const months = res.json<RevenueMonth[]>()
    expect(months).toHaveLength(12)
    expect(months.at(-1)?.month).toBe(isoDateIn(0).slice(0, 7))
    expect([...months.map((m) => m.month)].sort()).toEqual(months.map((m) => m.month))
    const [row] = await queryRows<{ s: string }>(
      t.db,
      sql`select coalesce(sum(amount), 0) as s from payments where hospital_id = ${sanjeevaniId}
          and to_char(paid_at at time zone 'Asia/Kolkata', 'YYYY-MM') >= ${months[0]!.month}`,
    )
    expect(months.reduce((s, m) => s + m.paid, 0)).toBe(Number(row?.s))
  })

  it('CSV export: the filtered invoices, a formula in a patient name neutralised', async () => {
    const created = await billingCall(t.app, cookies.admin, 'POST', '/api/patients/manual', {
      name: '=cmd|calc',
      phone: '+91 98220 11234',
    })
    expect(created.statusCode, created.body).toBe(201)
    const inv = await createInvoice(
      t.app,
      cookies.admin!,
      invoicePayload(created.json<{ id: string }>().id),
    )
    const res = await billingCall(
      t.app,
      cookies.viewer,
      'GET',
      '/api/invoices/export.csv?search=%3Dcmd',
    )
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[0]).toMatch(/^Invoice number,Type,Status,Patient,/)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain(inv.invoiceNumber)
    expect(lines[1]).toContain(",'=cmd|calc,")
    expect(lines[1]).toContain(`,${paiseToDecimal(inv.amount)},`)
    const paid = await billingCall(
      t.app,
      cookies.admin,
      'GET',
      '/api/invoices/export.csv?status=paid',
    )
    const rows = paid.body.trim().split('\r\n').slice(1)
    expect(rows.length).toBeGreaterThan(50)
    expect(rows.every((r) => r.split(',')[2] === 'paid')).toBe(true)
    expectError(
      await billingCall(t.app, cookies.admin, 'GET', '/api/invoices/export.csv?status=x'),
      400,
      'VALIDATION',
    )
  })
})

describe('financial year', () => {
  it('31 March 23:30 IST numbers in 2026-27, 1 April 00:00 IST starts 2027-28 at 000001', async () => {
    const userId = await userIdOf(t.db, demoEmail('admin'))
    const base = { db: t.db, hospitalId: sanjeevaniId, userId }
    const input = {
      patientId,
      lines: [
        {
          name: 'OPD consultation',
          code: '999312',
          quantity: 1,
          unitPrice: 50_000,
          discount: 0,
          gstRate: 0 as const,
        },
      ],
      dueDate: '2027-04-30',
      notes: null,
    }
    const march = await createInvoiceService({
      ...base,
      now: new Date('2027-03-31T18:00:00Z'),
      input,
    })
    const april = await createInvoiceService({
      ...base,
      now: new Date('2027-03-31T18:30:00Z'),
      input,
    })
    expect(march.issueDate).toBe('2027-03-31')
    expect(march.invoiceNumber).toMatch(/\/2026-27\/\d{6}$/)
    expect(april.issueDate).toBe('2027-04-01')
    expect(april.invoiceNumber).toMatch(/\/2027-28\/000001$/)
  })
})

describe('the overdue job', () => {
  it("turns pending invoices past due in each hospital's own zone into overdue, once", async () => {
    await queryRows(
      t.db,
      sql`update hospitals set time_zone = 'America/New_York' where id = ${smileId}`,
    )
    const smilePatient = (
      await billingCall(t.app, cookies.smileAdmin, 'GET', '/api/patients?limit=1')
    ).json<{ id: string }[]>()[0]!.id
    const a = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const b = await createInvoice(t.app, cookies.smileAdmin!, invoicePayload(smilePatient))
    const due = isoDateIn(-3)
    await queryRows(
      t.db,
      sql`update invoices set issue_date = ${due}, due_date = ${due} where id in (${a.id}, ${b.id})`,
    )
    // The next day 00:30 in India is still the due date (14:00) in New York.
    const at = new Date(`${isoDateIn(-2)}T00:30:00+05:30`)
    const removers = [
      registerHandler(OVERDUE_JOB, overdueJob),
      registerHandler(OVERDUE_SWEEP_JOB, overdueSweepJob),
    ]
    const worker = new Worker({
      database: t.database,
      names: [OVERDUE_JOB, OVERDUE_SWEEP_JOB],
      pollMs: 20,
      backoff: () => 10,
    })
    try {
      // One job per hospital (the demo has more than these two).
      const [hospitalCount] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from hospitals`,
      )
      await worker.start()
      await withPlatform(t.db, (tx) =>
        enqueue(tx, { name: OVERDUE_SWEEP_JOB, hospitalId: null, runAt: at }),
      )
      await waitFor(async () => {
        const [row] = await queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from jobs where name = ${OVERDUE_JOB} and status = 'done'`,
        )
        return (row?.n ?? 0) >= (hospitalCount?.n ?? 2)
      }, 'the overdue jobs')
      const status = async (id: string) =>
        (
          await queryRows<{ status: string }>(
            t.db,
            sql`select status from invoices where id = ${id}`,
          )
        )[0]?.status
      expect(await status(a.id)).toBe('overdue')
      expect(await status(b.id)).toBe('pending')
      const jobs = await queryRows<{ payload: { date: string }; hospital_id: string }>(
        t.db,
        sql`select payload, hospital_id from jobs where name = ${OVERDUE_JOB} order by hospital_id`,
      )
      expect(jobs.find((j) => j.hospital_id === sanjeevaniId)?.payload.date).toBe(isoDateIn(-2))
      expect(jobs.find((j) => j.hospital_id === smileId)?.payload.date).toBe(isoDateIn(-3))
      // Again for the same slot: no new jobs; and running the change again changes nothing.
      await withPlatform(t.db, (tx) =>
        enqueue(tx, { name: OVERDUE_SWEEP_JOB, hospitalId: null, runAt: at }),
      )
      await waitFor(async () => {
        const [row] = await queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from jobs where name = ${OVERDUE_SWEEP_JOB} and status = 'done'`,
        )
        return (row?.n ?? 0) >= 2
      }, 'the second sweep')
      const [count] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from jobs where name = ${OVERDUE_JOB}`,
      )
      expect(count?.n).toBe(hospitalCount?.n)
      expect(count?.n).toBeGreaterThanOrEqual(2)
      const again = await withTenant(t.db, { hospitalId: sanjeevaniId, userId: null }, (tx) =>
        markOverdue(tx, { hospitalId: sanjeevaniId, today: isoDateIn(-2) }),
      )
      expect(again).toBe(0)
      // Overdue can still be paid.
      const paid = await billingCall(
        t.app,
        cookies.admin,
        'PATCH',
        `/api/invoices/${a.id}/status`,
        { status: 'paid', method: 'upi', reference: 'UPI/1' },
      )
      expect(paid.json<InvoiceDetail>().status).toBe('paid')
    } finally {
      await worker.stop()
      for (const remove of removers) remove()
      await queryRows(
        t.db,
        sql`update hospitals set time_zone = 'Asia/Kolkata' where id = ${smileId}`,
      )
    }
  })
})

describe('the service catalogue', () => {
  it('lists by name; admin adds and edits; names are unique per hospital; nurses only read', async () => {
    const list = await billingCall(t.app, cookies.nurse, 'GET', '/api/services')
    const names = list.json<CatalogueService[]>().map((s) => s.name)
    expect(names).toContain('OPD consultation')
    expect([...names].sort((x, y) => x.localeCompare(y))).toHaveLength(names.length)
    const body = { name: 'ECG', code: '999317', defaultPrice: 30_000, gstRate: 0 }
    const created = await billingCall(t.app, cookies.admin, 'POST', '/api/services', body)
    expect(created.statusCode, created.body).toBe(201)
    const service = created.json<CatalogueService>()
    expect(service).toMatchObject({ ...body, durationMinutes: 30, bookable: true, active: true })
    expectError(
      await billingCall(t.app, cookies.admin, 'POST', '/api/services', { ...body, name: 'ecg' }),
      409,
      'CONFLICT',
    )
    // Another hospital may use the name.
    expect(
      (await billingCall(t.app, cookies.smileAdmin, 'POST', '/api/services', body)).statusCode,
    ).toBe(201)
    const patched = await billingCall(
      t.app,
      cookies.admin,
      'PATCH',
      `/api/services/${service.id}`,
      { defaultPrice: 35_000, active: false },
    )
    expect(patched.json<CatalogueService>()).toMatchObject({ defaultPrice: 35_000, active: false })
    expectError(
      await billingCall(t.app, cookies.admin, 'PATCH', `/api/services/${service.id}`, {
        name: 'OPD consultation',
      }),
      409,
      'CONFLICT',
    )
    expectError(
      await billingCall(t.app, cookies.smileAdmin, 'PATCH', `/api/services/${service.id}`, {
        defaultPrice: 1,
      }),
      404,
      'NOT_FOUND',
    )
    expectError(
      await billingCall(t.app, cookies.nurse, 'POST', '/api/services', { ...body, name: 'X' }),
      403,
    )
    expect(
      issuePaths(
        await billingCall(t.app, cookies.admin, 'POST', '/api/services', {
          name: 'Y',
          defaultPrice: -1,
        }),
      ),
    ).toEqual(['defaultPrice'])
    expect(
      issuePaths(
        await billingCall(t.app, cookies.admin, 'PATCH', `/api/services/${service.id}`, {}),
      ),
    ).toEqual([''])
    expect(
      issuePaths(
        await billingCall(t.app, cookies.admin, 'POST', '/api/services', {
          ...body,
          name: 'Z',
          price: 1,
        }),
      ),
    ).toEqual([''])
    const audit = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where entity_id = ${service.id} order by created_at`,
    )
    expect(audit.map((r) => r.action)).toEqual(['service.created', 'service.updated'])
  })
})
