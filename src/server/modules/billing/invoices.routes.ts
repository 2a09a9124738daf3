import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import {
  createInvoiceInput,
  exportInvoicesQuery,
  listInvoicesQuery,
  updateInvoiceStatusInput,
} from '../../../shared/schemas/billing'
import { uuidParam } from '../../../shared/schemas/common'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { hospitalBilling } from './hospital-billing'
import { invoicesCsv } from './invoice-csv'
import { invoicePdfFileName, renderInvoicePdf } from './invoice-pdf'
import { invoiceSummary, listInvoices } from './invoices.list'
import { createInvoice, getInvoice } from './invoices.service'
import { updateInvoiceStatus } from './payments.service'
import { revenueByMonth } from './revenue'

/** /api/invoices: billing:read lists, reads and exports; billing:write creates and settles. */
export function invoicesRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const read = { config: requirePermission('billing:read') }
  const write = { config: requirePermission('billing:write') }

  app.get('/api/invoices', read, async (req) => {
    const query = parse(listInvoicesQuery, req.query, 'query')
    return listInvoices({ db, ...actingMember(req), ...query })
  })

  app.get('/api/invoices/summary', read, async (req) =>
    invoiceSummary({ db, ...actingMember(req) }),
  )

  app.get('/api/invoices/revenue', read, async (req) =>
    revenueByMonth({ db, ...actingMember(req) }),
  )

  app.get('/api/invoices/export.csv', read, async (req, reply) => {
    const query = parse(exportInvoicesQuery, req.query, 'query')
    const who = actingMember(req)
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="invoices.csv"')
      .header('cache-control', 'no-store')
      .send(Readable.from(invoicesCsv({ db, ...who, ...query })))
  })

  app.get('/api/invoices/:id', read, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return getInvoice({ db, ...actingMember(req), id })
  })

  app.get('/api/invoices/:id/pdf', read, async (req, reply) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const who = actingMember(req)
    const invoice = await getInvoice({ db, ...who, id })
    const { timeZone } = await hospitalBilling(db, who.hospitalId)
    const pdf = await renderInvoicePdf(invoice, timeZone)
    return reply
      .header('content-type', 'application/pdf')
      .header(
        'content-disposition',
        `attachment; filename="${invoicePdfFileName(invoice.invoiceNumber)}"`,
      )
      .header('cache-control', 'no-store')
      .send(pdf)
  })

  app.post('/api/invoices', write, async (req, reply) => {
    const input = parse(createInvoiceInput, req.body)
    const created = await createInvoice({ db, ...actingMember(req), input })
    return reply.status(201).send(created)
  })

  app.patch('/api/invoices/:id/status', write, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const change = parse(updateInvoiceStatusInput, req.body)
    return updateInvoiceStatus({ db, ...actingMember(req), id, change })
  })
}
