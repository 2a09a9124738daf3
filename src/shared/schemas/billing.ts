import { z } from 'zod'
import {
  gstRates,
  invoiceKinds,
  invoiceStatuses,
  MAX_LINE_PRICE_PAISE,
  MAX_LINE_QUANTITY,
  recordedPaymentMethods,
} from '../billing'
import { isoDate, optionalText, paginationQuery } from './common'

/*
 * Billing API contract (issue 26): invoices, payments and the service catalogue. Every amount is
 * integer paise and computed by the server; requests are strict (a client's total is refused as an
 * unknown field).
 */

/** The most lines one invoice may have. */
export const MAX_INVOICE_LINES = 50
/** Invoices a list page has when the client does not say. */
export const INVOICE_PAGE_SIZE = 50

const paise = (label: string, max = MAX_LINE_PRICE_PAISE) =>
  z
    .number({ message: `${label} must be a number of paise` })
    .int({ message: `${label} must be a whole number of paise` })
    .min(0, { message: `${label} cannot be negative` })
    .max(max, { message: `${label} must be at most ₹1 crore` })

const gstRate = z.union(
  gstRates.map((r) => z.literal(r)),
  { message: 'GST rate must be 0, 5, 12 or 18' },
)

/** SAC or HSN code: 4 to 8 digits; '' becomes null. */
const sacCode = z
  .string({ message: 'Must be text' })
  .trim()
  .refine((v) => v === '' || /^\d{4,8}$/.test(v), { message: 'SAC/HSN code must be 4 to 8 digits' })
  .transform((v) => (v === '' ? null : v))
  .nullish()
  .transform((v) => v ?? null)

/** A GST state code, '27' (Maharashtra). */
const stateCode = z
  .string({ message: 'State code must be 2 digits' })
  .regex(/^\d{2}$/, { message: 'State code must be 2 digits' })

export const invoiceLineInput = z
  .strictObject({
    serviceId: z.uuid({ message: 'serviceId must be a valid id' }).nullish(),
    name: z
      .string({ message: 'Service name is required' })
      .trim()
      .min(1, { message: 'Service name is required' })
      .max(200, { message: 'Service name must be at most 200 characters' }),
    code: sacCode,
    quantity: z
      .number({ message: 'Quantity must be a number' })
      .int({ message: 'Quantity must be a whole number' })
      .min(1, { message: 'Quantity must be at least 1' })
      .max(MAX_LINE_QUANTITY, { message: `Quantity must be at most ${MAX_LINE_QUANTITY}` }),
    unitPrice: paise('Unit price'),
    discount: z
      .number({ message: 'Discount must be a number of paise' })
      .int({ message: 'Discount must be a whole number of paise' })
      .min(0, { message: 'Discount cannot be negative' })
      .optional()
      .default(0),
    gstRate,
  })
  .superRefine((line, ctx) => {
    if (line.discount > line.quantity * line.unitPrice)
      ctx.addIssue({
        code: 'custom',
        path: ['discount'],
        message: 'Discount cannot be more than the line amount',
      })
  })
export type InvoiceLineInput = z.input<typeof invoiceLineInput>

/** POST /api/invoices. dueDate must not be before today in the hospital's zone (server check). */
export const createInvoiceInput = z.strictObject({
  patientId: z.uuid({ message: 'Choose a patient' }),
  lines: invoiceLineInput
    .array()
    .min(1, { message: 'Add at least one line' })
    .max(MAX_INVOICE_LINES, { message: `An invoice has at most ${MAX_INVOICE_LINES} lines` }),
  dueDate: isoDate,
  notes: optionalText(2000),
  /** The patient's GST state; default the hospital's (CGST + SGST). Another state: IGST. */
  patientStateCode: stateCode.nullish(),
  appointmentId: z.uuid({ message: 'appointmentId must be a valid id' }).nullish(),
})
export type CreateInvoiceInput = z.input<typeof createInvoiceInput>
export type CreateInvoiceData = z.output<typeof createInvoiceInput>

const methodMessage = 'Method must be cash, upi, card, bank_transfer, insurance or unspecified'

/**
 * Mark Paid. The spec's own body is `{ "status": "paid" }` alone: it records a payment of the
 * balance with the method 'unspecified'.
 */
export const markPaidInput = z.strictObject({
  status: z.literal('paid'),
  method: z
    .enum(recordedPaymentMethods, { message: methodMessage })
    .optional()
    .default('unspecified'),
  reference: optionalText(100),
  /** Paise; default the balance. Less than the balance is a partial payment. */
  amount: z
    .number({ message: 'Amount must be a number of paise' })
    .int({ message: 'Amount must be a whole number of paise' })
    .min(1, { message: 'Amount must be more than zero' })
    .optional(),
})

export const cancelInvoiceInput = z.strictObject({
  status: z.literal('cancelled'),
  reason: z
    .string({ message: 'A reason is required to cancel' })
    .trim()
    .min(1, { message: 'A reason is required to cancel' })
    .max(500, { message: 'Reason must be at most 500 characters' }),
})

/** PATCH /api/invoices/:id/status */
export const updateInvoiceStatusInput = z.discriminatedUnion(
  'status',
  [markPaidInput, cancelInvoiceInput],
  {
    message: 'Status must be paid or cancelled',
  },
)
export type UpdateInvoiceStatusInput = z.input<typeof updateInvoiceStatusInput>

/** GET /api/invoices?status=&search=&cursor=&limit= (and export.csv with status and search). */
export const listInvoicesQuery = z.strictObject({
  status: z
    .enum(invoiceStatuses, { message: 'status must be pending, paid, overdue or cancelled' })
    .optional(),
  search: z
    .string()
    .trim()
    .max(200, { message: 'search must be at most 200 characters' })
    .optional(),
  ...paginationQuery,
})
export type ListInvoicesQuery = z.input<typeof listInvoicesQuery>

export const exportInvoicesQuery = listInvoicesQuery.pick({ status: true, search: true })

export const invoiceService = z.object({ name: z.string(), price: z.number() })

/** A list item. `services` is the spec's list: each line's name and its total in paise. */
export const invoice = z.object({
  id: z.string(),
  invoiceNumber: z.string(),
  patientId: z.string().nullable(),
  patientName: z.string(),
  amount: z.number(),
  amountPaid: z.number(),
  balance: z.number(),
  status: z.enum(invoiceStatuses),
  kind: z.enum(invoiceKinds),
  issueDate: z.string(),
  dueDate: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  services: invoiceService.array(),
  cancelReason: z.string().nullable(),
})
export type Invoice = z.infer<typeof invoice>

export const invoiceList = z.object({
  invoices: invoice.array(),
  nextCursor: z.string().nullable(),
})
export type InvoiceList = z.infer<typeof invoiceList>

export const invoiceLine = z.object({
  lineNo: z.number(),
  serviceId: z.string().nullable(),
  name: z.string(),
  code: z.string().nullable(),
  quantity: z.number(),
  unitPrice: z.number(),
  discount: z.number(),
  gstRate: z.number(),
  taxableValue: z.number(),
  tax: z.number(),
  total: z.number(),
})
export type InvoiceLine = z.infer<typeof invoiceLine>

export const payment = z.object({
  id: z.string(),
  amount: z.number(),
  method: z.enum(recordedPaymentMethods),
  reference: z.string().nullable(),
  paidAt: z.string(),
})
export type Payment = z.infer<typeof payment>

export const invoiceHospital = z.object({
  name: z.string(),
  address: z.string().nullable(),
  gstin: z.string().nullable(),
  stateCode: z.string().nullable(),
  upiId: z.string().nullable(),
})

export const invoiceDetail = invoice.extend({
  lines: invoiceLine.array(),
  subtotal: z.number(),
  discountTotal: z.number(),
  /** The value of the taxable lines (GST rate above 0); exempt lines are `exemptTotal`. */
  taxableTotal: z.number(),
  exemptTotal: z.number(),
  cgst: z.number(),
  sgst: z.number(),
  igst: z.number(),
  /** 'Rupees One Lakh Twenty Thousand Only'. */
  amountInWords: z.string(),
  payments: payment.array(),
  notes: z.string().nullable(),
  patientStateCode: z.string().nullable(),
  /** The patient's address on record (null once erased or never given). */
  patientAddress: z.string().nullable(),
  hospital: invoiceHospital,
})
export type InvoiceDetail = z.infer<typeof invoiceDetail>

/** GET /api/invoices/summary: the spec's four cards, in paise (and a count). */
export const invoiceSummary = z.object({
  totalRevenue: z.number(),
  pending: z.number(),
  overdue: z.number(),
  totalInvoices: z.number(),
})
export type InvoiceSummary = z.infer<typeof invoiceSummary>

/** GET /api/invoices/revenue: paid per month ('yyyy-MM'), last 12 months, oldest first. */
export const revenueMonth = z.object({ month: z.string(), paid: z.number() })
export const revenueSeries = revenueMonth.array()
export type RevenueMonth = z.infer<typeof revenueMonth>

/* ---- Service catalogue: /api/services ---- */

const serviceFields = {
  name: z
    .string({ message: 'Service name is required' })
    .trim()
    .min(1, { message: 'Service name is required' })
    .max(120, { message: 'Service name must be at most 120 characters' }),
  code: sacCode,
  defaultPrice: paise('Default price'),
  gstRate,
  durationMinutes: z.union(
    [15, 30, 45, 60].map((d) => z.literal(d)),
    {
      message: 'Duration must be 15, 30, 45 or 60 minutes',
    },
  ),
  bookable: z.boolean({ message: 'bookable must be true or false' }),
  active: z.boolean({ message: 'active must be true or false' }),
}

export const createServiceInput = z.strictObject({
  ...serviceFields,
  code: serviceFields.code,
  gstRate: serviceFields.gstRate.optional().default(0),
  durationMinutes: serviceFields.durationMinutes.optional().default(30),
  bookable: serviceFields.bookable.optional().default(true),
  active: serviceFields.active.optional().default(true),
})
export type CreateServiceInput = z.input<typeof createServiceInput>

export const updateServiceInput = z
  .strictObject(serviceFields)
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Send at least one field to change' })
export type UpdateServiceInput = z.input<typeof updateServiceInput>

export const catalogueService = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  defaultPrice: z.number(),
  gstRate: z.number(),
  durationMinutes: z.number(),
  bookable: z.boolean(),
  active: z.boolean(),
})
export type CatalogueService = z.infer<typeof catalogueService>
export const catalogueServices = catalogueService.array()
