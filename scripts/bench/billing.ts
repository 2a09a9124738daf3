// The billing part (issue 26): the invoice list page and the summary cards over N invoices in
// one hospital (default 100,000; BENCH_BILLING_INVOICES), p50/p99 of sequential requests at 1
// connection through the real app, with the raw SQL of the same read beside it (one tenant
// transaction, no HTTP, no JSON); and PDF generation time per invoice. On PostgreSQL when it
// answers (config.serverUrl), else PGlite.
//
//   npx tsx scripts/bench/billing.ts                          this part alone
//   BENCH_BILLING_INVOICES=20000 npx tsx scripts/bench/billing.ts   fewer invoices
import { sql } from 'drizzle-orm'
import { withTenant } from '../../src/server/db/tenant'
import { hospitalBilling } from '../../src/server/modules/billing/hospital-billing'
import { renderInvoicePdf } from '../../src/server/modules/billing/invoice-pdf'
import { getInvoice } from '../../src/server/modules/billing/invoices.service'
import type { InvoiceList } from '../../src/shared/schemas/billing'
import { billingCall } from '../../tests/support/billing'
import { login } from '../../tests/support/login'
import { createTestApp, demoEmail, hospitalIdOf, queryRows } from '../../tests/support/test-app'
import { config } from './config'
import { percentile } from './load'
import { postgresAnswers } from './postgres'

export interface BillingResult {
  driver: 'postgres' | 'pglite'
  invoices: number
  list: { p50: number; p99: number; sqlP50: number; sqlP99: number }
  listPending: { p50: number; p99: number; sqlP50: number; sqlP99: number }
  summary: { p50: number; p99: number; sqlP50: number; sqlP99: number }
  pdfMs: { p50: number; p99: number }
}

async function timed(
  runs: number,
  fn: () => Promise<unknown>,
): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 10; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) }
}

export async function benchBilling(log: (line: string) => void): Promise<BillingResult> {
  const n = Number(process.env.BENCH_BILLING_INVOICES ?? 100_000)
  const runs = Number(process.env.BENCH_BILLING_RUNS ?? 300)
  const onPostgres = await postgresAnswers()
  if (onPostgres) process.env.TEST_DATABASE_URL ??= config.serverUrl
  const t = await createTestApp({ logLevel: 'warn' })
  try {
    const h = await hospitalIdOf(t.db, 'sanjeevani')
    const cookie = await login(t.app, demoEmail('admin'))
    const [patient] = await queryRows<{ id: string; name: string }>(
      t.db,
      sql`select id, name from patients where hospital_id = ${h} limit 1`,
    )
    const t0 = performance.now()
    // Set-based: N invoices of an old financial year, statuses mixed like a clinic's, one line each.
    await queryRows(
      t.db,
      sql`insert into invoices (hospital_id, invoice_number, financial_year, sequence, patient_id,
            patient_name, kind, status, subtotal, taxable_total, amount, amount_paid, issue_date,
            due_date, paid_at, cancelled_at, cancel_reason, created_at)
          select ${h}, 'BENCH/2015-16/' || lpad(g::text, 6, '0'), '2015-16', g, ${patient!.id},
            ${patient!.name}, 'bill_of_supply', s.status, 50000, 50000, 50000,
            case s.status when 'paid' then 50000 else 0 end, d::date, d::date + 7,
            case s.status when 'paid' then d + interval '1 day' end,
            case s.status when 'cancelled' then d end,
            case s.status when 'cancelled' then 'Duplicate invoice' end, d
          from generate_series(1, ${n}) g
          cross join lateral (select now() - (g || ' minutes')::interval as d) t
          cross join lateral (select (array['paid','paid','paid','paid','paid','paid','pending','pending','overdue','cancelled'])[1 + g % 10] as status) s`,
    )
    await queryRows(
      t.db,
      sql`insert into invoice_lines (hospital_id, invoice_id, line_no, name, code, quantity, unit_price,
            gst_rate, taxable_value, tax, total)
          select hospital_id, id, 1, 'OPD consultation', '999312', 1, 50000, 0, 50000, 0, 50000
          from invoices where hospital_id = ${h} and financial_year = '2015-16'`,
    )
    await queryRows(t.db, sql`analyze invoices`)
    await queryRows(t.db, sql`analyze invoice_lines`)
    log(
      `  ${n.toLocaleString('en-IN')} invoices inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s (${onPostgres ? 'PostgreSQL' : 'PGlite'})`,
    )

    const ctx = { hospitalId: h, userId: null }
    const get = (url: string) => async () => {
      const res = await billingCall(t.app, cookie, 'GET', url)
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
      return res
    }
    const rawList = (status: string | null) => () =>
      withTenant(t.db, ctx, (tx) =>
        tx.execute(sql`select i.id, i.invoice_number, i.patient_id, i.patient_name, i.amount, i.amount_paid, i.status,
            i.kind, i.issue_date, i.due_date, i.created_at, i.paid_at, i.cancel_reason
          from invoices i where ${status ? sql`i.status = ${status}` : sql`true`}
          order by i.created_at desc, i.id desc limit 51`),
      )
    const rawSummary = () =>
      withTenant(t.db, ctx, (tx) =>
        tx.execute(sql`select coalesce(sum(amount_paid), 0),
            coalesce(sum(amount - amount_paid) filter (where status = 'pending'), 0),
            coalesce(sum(amount - amount_paid) filter (where status = 'overdue'), 0), count(*) from invoices`),
      )
    const page = await get('/api/invoices')()
    if (page.json<InvoiceList>().invoices.length !== 50)
      throw new Error('the list page is not 50 invoices')
    const list = {
      ...(await timed(runs, get('/api/invoices'))),
      ...sqlTimes(await timed(runs, rawList(null))),
    }
    log(
      `  GET /api/invoices (page of 50, newest first): p50 ${list.p50.toFixed(2)} ms, p99 ${list.p99.toFixed(2)} ms; raw SQL p50 ${list.sqlP50.toFixed(2)} ms, p99 ${list.sqlP99.toFixed(2)} ms`,
    )
    const listPending = {
      ...(await timed(runs, get('/api/invoices?status=pending'))),
      ...sqlTimes(await timed(runs, rawList('pending'))),
    }
    log(
      `  GET /api/invoices?status=pending: p50 ${listPending.p50.toFixed(2)} ms, p99 ${listPending.p99.toFixed(2)} ms; raw SQL p50 ${listPending.sqlP50.toFixed(2)} ms, p99 ${listPending.sqlP99.toFixed(2)} ms`,
    )
    const summary = {
      ...(await timed(runs, get('/api/invoices/summary'))),
      ...sqlTimes(await timed(runs, rawSummary)),
    }
    log(
      `  GET /api/invoices/summary (${n.toLocaleString('en-IN')}+ rows): p50 ${summary.p50.toFixed(2)} ms, p99 ${summary.p99.toFixed(2)} ms; raw SQL p50 ${summary.sqlP50.toFixed(2)} ms, p99 ${summary.sqlP99.toFixed(2)} ms`,
    )

    // PDF: a seeded Tax Invoice (with a QR when a balance is due), rendered again and again.
    const [taxable] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from invoices where hospital_id = ${h} and kind = 'tax_invoice' order by created_at desc limit 1`,
    )
    const hospital = await hospitalBilling(t.db, h)
    const detail = await getInvoice({ db: t.db, hospitalId: h, userId: null, id: taxable!.id })
    const pdfRuns = Number(process.env.BENCH_BILLING_PDFS ?? 30)
    const pdfMs = await timed(pdfRuns, () => renderInvoicePdf(detail, hospital.timeZone))
    log(
      `  PDF generation per invoice (${pdfRuns} runs after warm-up): p50 ${pdfMs.p50.toFixed(1)} ms, p99 ${pdfMs.p99.toFixed(1)} ms`,
    )
    return {
      driver: onPostgres ? 'postgres' : 'pglite',
      invoices: n,
      list,
      listPending,
      summary,
      pdfMs,
    }
  } finally {
    await t.close()
  }
}

function sqlTimes(r: { p50: number; p99: number }): { sqlP50: number; sqlP99: number } {
  return { sqlP50: r.p50, sqlP99: r.p99 }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('== Billing (issue 26) ==')
  benchBilling((line) => console.log(line))
    .then((r) => console.log(`billing: ${JSON.stringify(r)}`))
    .catch((error: unknown) => {
      console.error(error)
      process.exitCode = 1
    })
}
