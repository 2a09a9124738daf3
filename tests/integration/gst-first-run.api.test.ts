import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InvoiceDetail } from '../../src/shared/schemas/billing'
import { billingCall, createInvoice, invoicePayload, pdfText } from '../support/billing'
import { login } from '../support/login'
import { createTestApp, demoEmail, queryRows, type TestApp } from '../support/test-app'

/*
 * Issue 40 item 3 (GST figures a chartered accountant can file from) and item 21 (the spec's
 * Mark Paid, `{ "status": "paid" }` alone).
 */

let t: TestApp
const cookies: Record<string, string> = {}
let patientId: string

const ADDRESS = '14 Shivaji Nagar, Pune 411005'
const consultation = {
  name: 'OPD consultation',
  code: '999312',
  quantity: 1,
  unitPrice: 50_000,
  gstRate: 0 as const,
}
const kneeBrace = {
  name: 'Knee brace',
  code: '9021',
  quantity: 1,
  unitPrice: 145_000,
  gstRate: 12 as const,
}

beforeAll(async () => {
  t = await createTestApp()
  cookies.admin = await login(t.app, demoEmail('admin'))
  cookies.receptionist = await login(t.app, demoEmail('receptionist'))
  const res = await billingCall(t.app, cookies.admin, 'GET', '/api/patients?limit=1')
  patientId = res.json<{ id: string }[]>()[0]!.id
  await queryRows(t.db, sql`update patients set address = ${ADDRESS} where id = ${patientId}`)
})
afterAll(async () => {
  await t?.close()
})

async function pdfOf(id: string): Promise<string> {
  const res = await billingCall(t.app, cookies.admin, 'GET', `/api/invoices/${id}/pdf`)
  expect(res.statusCode).toBe(200)
  return pdfText(res.rawPayload)
}

describe('GST figures (issue 40 item 3)', () => {
  it('₹500 exempt + ₹1,450 at 12 %: taxable value ₹1,450, CGST 6 % ₹87, SGST 6 % ₹87', async () => {
    const inv = await createInvoice(
      t.app,
      cookies.receptionist!,
      invoicePayload(patientId, { lines: [consultation, kneeBrace] }),
    )
    expect(inv.kind).toBe('tax_invoice')
    expect([inv.subtotal, inv.exemptTotal, inv.taxableTotal, inv.cgst, inv.sgst, inv.igst]).toEqual(
      [195_000, 50_000, 145_000, 8_700, 8_700, 0],
    )
    expect(inv.amount).toBe(212_400)
    expect(inv.patientAddress).toBe(ADDRESS)
    const [stored] = await queryRows<{ taxable: number }>(
      t.db,
      sql`select taxable_total::int as taxable from invoices where id = ${inv.id}`,
    )
    expect(stored?.taxable).toBe(145_000)

    const paid = await billingCall(
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
    expect(paid.statusCode).toBe(200)

    const text = await pdfOf(inv.id)
    expect(text).toContain('Exempt value ₹500.00')
    expect(text).toContain('Taxable value ₹1,450.00')
    expect(text).not.toContain('Taxable value ₹1,950.00')
    expect(text).toContain('CGST @ 6% ₹87.00')
    expect(text).toContain('SGST @ 6% ₹87.00')
    expect(text).toContain('Total ₹2,124.00')
    expect(text).toContain(ADDRESS)
    expect(text).toContain('Place of supply: Maharashtra (27)')
    expect(text).not.toContain('state code')
    expect(text).toMatch(/₹2,124\.00 · UPI · Ref\. UPI\/433912876541/)
  })

  it('a patient in another state: IGST at the whole rate, the place of supply named', async () => {
    const inv = await createInvoice(
      t.app,
      cookies.admin!,
      invoicePayload(patientId, { patientStateCode: '29', lines: [consultation, kneeBrace] }),
    )
    expect([inv.taxableTotal, inv.cgst, inv.sgst, inv.igst]).toEqual([145_000, 0, 0, 17_400])
    const text = await pdfOf(inv.id)
    expect(text).toContain('IGST @ 12% ₹174.00')
    expect(text).not.toContain('CGST')
    expect(text).toContain('Place of supply: Karnataka (29)')
  })

  it('a Bill of Supply with only exempt lines shows no taxable value', async () => {
    const inv = await createInvoice(
      t.app,
      cookies.admin!,
      invoicePayload(patientId, { lines: [consultation, { ...consultation, quantity: 2 }] }),
    )
    expect(inv.kind).toBe('bill_of_supply')
    expect([inv.taxableTotal, inv.exemptTotal, inv.amount]).toEqual([0, 150_000, 150_000])
    const text = await pdfOf(inv.id)
    expect(text).toContain('Bill of Supply')
    expect(text).not.toContain('Taxable value')
    expect(text).not.toMatch(/CGST|SGST|IGST/)
    expect(text).toContain('Total ₹1,500.00')
  })
})

describe("the spec's Mark Paid (issue 40 item 21)", () => {
  it('{ "status": "paid" } alone pays the balance with the method "unspecified"', async () => {
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const res = await billingCall(
      t.app,
      cookies.receptionist,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      {
        status: 'paid',
      },
    )
    expect(res.statusCode).toBe(200)
    const paid = res.json<InvoiceDetail>()
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 50_000, balance: 0 })
    expect(paid.paidAt).not.toBeNull()
    expect(paid.payments).toMatchObject([
      { amount: 50_000, method: 'unspecified', reference: null },
    ])
    const audit = await queryRows<{ action: string; summary: string }>(
      t.db,
      sql`select action, summary from audit_events where entity_id = ${inv.id} order by created_at`,
    )
    expect(audit.at(-1)).toEqual({
      action: 'invoice.paid',
      summary: `Paid invoice ${inv.invoiceNumber}: ₹500.00 (method not specified)`,
    })
    expect(await pdfOf(inv.id)).toMatch(/₹500\.00 · Not specified/)
    // Paid is final, with or without a method.
    const again = await billingCall(
      t.app,
      cookies.admin,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      {
        status: 'paid',
      },
    )
    expect(again.statusCode).toBe(409)
  })
})
