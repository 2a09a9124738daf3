import { eq, inArray } from 'drizzle-orm'
import { dateInZone, invoiceTotals } from '../../../shared/invoice-math'
import { formatMoney } from '../../../shared/money'
import type { CreateInvoiceData, InvoiceDetail } from '../../../shared/schemas/billing'
import type { AppDb } from '../../db/client'
import { appointments, services } from '../../db/schema/appointments'
import { invoiceLines, invoices } from '../../db/schema/billing'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { hospitalBilling } from './hospital-billing'
import { allocateInvoiceNumbers } from './invoice-number'
import { loadInvoiceDetail } from './invoice-view'

export interface BillingOptions {
  db: AppDb
  hospitalId: string
  userId: string | null
  impersonatorUserId?: string | null | undefined
  /** The clock (tests move it across a financial year's end). */
  now?: Date | undefined
}

export const TAXABLE_NEEDS_GSTIN =
  "Taxable lines need the hospital's GSTIN: set it under Settings → General, or bill them at 0 %"

export async function getInvoice(opts: BillingOptions & { id: string }): Promise<InvoiceDetail> {
  const hospital = await hospitalBilling(opts.db, opts.hospitalId)
  return withTenant(opts.db, opts, async (tx) => {
    const { detail } = await loadInvoiceDetail(tx, opts.id, hospital)
    return detail
  })
}

/**
 * Creates an invoice: the server computes every amount (invoice-math.ts), takes the next
 * number of the financial year of today in the hospital's zone in the same transaction
 * (gapless), and audits it. The patient, services and appointment must be this hospital's.
 */
export async function createInvoice(
  opts: BillingOptions & { input: CreateInvoiceData },
): Promise<InvoiceDetail> {
  const { input } = opts
  const hospital = await hospitalBilling(opts.db, opts.hospitalId)
  const today = dateInZone(opts.now ?? new Date(), hospital.timeZone)
  if (input.dueDate < today) {
    throw new AppError('VALIDATION', 'Invalid input: dueDate: Due date cannot be before today', [
      { path: 'dueDate', message: 'Due date cannot be before today' },
    ])
  }
  const patientState = input.patientStateCode ?? hospital.stateCode
  const interState =
    hospital.stateCode !== null && patientState !== null && patientState !== hospital.stateCode
  const totals = invoiceTotals(input.lines, interState)
  if (totals.kind === 'tax_invoice' && !hospital.gstin)
    throw new AppError('CONFLICT', TAXABLE_NEEDS_GSTIN)

  return withTenant(opts.db, opts, async (tx) => {
    const [patient] = await tx
      .select({ id: patients.id, name: patients.name })
      .from(patients)
      .where(eq(patients.id, input.patientId))
    if (!patient) throw notFound('Patient')
    const serviceIds = [...new Set(input.lines.flatMap((l) => (l.serviceId ? [l.serviceId] : [])))]
    if (serviceIds.length > 0) {
      const found = await tx
        .select({ id: services.id })
        .from(services)
        .where(inArray(services.id, serviceIds))
      if (found.length !== serviceIds.length) throw notFound('Service')
    }
    if (input.appointmentId) {
      const [appointment] = await tx
        .select({ patientId: appointments.patientId })
        .from(appointments)
        .where(eq(appointments.id, input.appointmentId))
      if (!appointment) throw notFound('Appointment')
      if (appointment.patientId !== patient.id)
        throw new AppError(
          'VALIDATION',
          "Invalid input: appointmentId: The appointment is another patient's",
          [{ path: 'appointmentId', message: "The appointment is another patient's" }],
        )
    }
    const numbers = await allocateInvoiceNumbers(tx, {
      hospitalId: opts.hospitalId,
      prefix: hospital.invoicePrefix,
      issueDate: today,
    })
    const invoiceNumber = numbers.numberAt(0)
    const [row] = await tx
      .insert(invoices)
      .values({
        hospitalId: opts.hospitalId,
        invoiceNumber,
        financialYear: numbers.financialYear,
        sequence: numbers.first,
        patientId: patient.id,
        patientName: patient.name,
        patientStateCode: patientState,
        appointmentId: input.appointmentId ?? null,
        kind: totals.kind,
        subtotal: totals.subtotal,
        discountTotal: totals.discountTotal,
        taxableTotal: totals.taxableTotal,
        cgst: totals.cgst,
        sgst: totals.sgst,
        igst: totals.igst,
        amount: totals.amount,
        issueDate: today,
        dueDate: input.dueDate,
        notes: input.notes,
        createdBy: opts.userId,
        ...(opts.now ? { createdAt: opts.now, updatedAt: opts.now } : {}),
      })
      .returning({ id: invoices.id })
    if (!row) throw new AppError('INTERNAL', 'Invoice was not saved')
    await tx.insert(invoiceLines).values(
      input.lines.map((l, i) => {
        const a = totals.lines[i] as (typeof totals.lines)[number]
        return {
          hospitalId: opts.hospitalId,
          invoiceId: row.id,
          lineNo: i + 1,
          serviceId: l.serviceId ?? null,
          name: l.name,
          code: l.code,
          quantity: l.quantity,
          unitPrice: l.unitPrice,
          discount: l.discount,
          gstRate: l.gstRate,
          taxableValue: a.taxableValue,
          tax: a.tax,
          total: a.total,
        }
      }),
    )
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'invoice.created',
      entityType: 'invoice',
      entityId: row.id,
      summary: `Created invoice ${invoiceNumber} for ${patient.name}: ${formatMoney(totals.amount)}`,
    })
    const { detail } = await loadInvoiceDetail(tx, row.id, hospital)
    return detail
  })
}
