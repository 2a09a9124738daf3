import { eq } from 'drizzle-orm'
import { formatMoney } from '../../../shared/money'
import type { z } from 'zod'
import type { InvoiceDetail, updateInvoiceStatusInput } from '../../../shared/schemas/billing'
import { invoices, payments } from '../../db/schema/billing'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { hospitalBilling } from './hospital-billing'
import type { BillingOptions } from './invoices.service'
import { loadInvoiceDetail } from './invoice-view'

type StatusChange = z.output<typeof updateInvoiceStatusInput>

/** Paid and cancelled are final; a payment or a cancellation needs a pending or overdue one. */
function assertOpen(status: string, to: 'paid' | 'cancelled'): void {
  if (status === 'pending' || status === 'overdue') return
  throw new AppError(
    'INVALID_TRANSITION',
    `This invoice is ${status}: it cannot be ${to === 'paid' ? 'marked paid' : 'cancelled'}`,
  )
}

/**
 * PATCH /api/invoices/:id/status. Mark Paid records a payment (method, reference, amount: the
 * balance by default; the spec's `{ "status": "paid" }` alone pays the balance with the method
 * 'unspecified'); less than the balance keeps the invoice pending or overdue, the rest
 * makes it paid (paid_at). More than the balance is refused. Cancel needs a reason, keeps the
 * number, and is refused once money was received (that needs a refund, not a cancellation).
 * The row is locked first, so two cashiers cannot both take the last balance.
 */
export async function updateInvoiceStatus(
  opts: BillingOptions & { id: string; change: StatusChange },
): Promise<InvoiceDetail> {
  const hospital = await hospitalBilling(opts.db, opts.hospitalId)
  const now = opts.now ?? new Date()
  return withTenant(opts.db, opts, async (tx) => {
    const { row } = await loadInvoiceDetail(tx, opts.id, hospital, { forUpdate: true })
    const change = opts.change
    const audit = (action: string, summary: string) =>
      recordAudit(tx, {
        hospitalId: opts.hospitalId,
        actorUserId: opts.userId,
        impersonatorUserId: opts.impersonatorUserId,
        action,
        entityType: 'invoice',
        entityId: row.id,
        summary,
      })
    if (change.status === 'paid') {
      assertOpen(row.status, 'paid')
      const balance = row.amount - row.amountPaid
      const amount = change.amount ?? balance
      if (amount > balance) {
        throw new AppError(
          'VALIDATION',
          `Invalid input: amount: The payment is more than the balance of ${formatMoney(balance)}`,
          [
            {
              path: 'amount',
              message: `The payment is more than the balance of ${formatMoney(balance)}`,
            },
          ],
        )
      }
      if (amount <= 0)
        throw new AppError('INVALID_TRANSITION', 'This invoice has nothing left to pay')
      await tx.insert(payments).values({
        hospitalId: opts.hospitalId,
        invoiceId: row.id,
        amount,
        method: change.method,
        reference: change.reference ?? null,
        paidAt: now,
        recordedBy: opts.userId,
      })
      const full = amount === balance
      await tx
        .update(invoices)
        .set({
          amountPaid: row.amountPaid + amount,
          ...(full ? { status: 'paid' as const, paidAt: now } : {}),
          updatedAt: now,
        })
        .where(eq(invoices.id, row.id))
      await audit(
        full ? 'invoice.paid' : 'invoice.payment_recorded',
        `${full ? 'Paid' : 'Part payment on'} invoice ${row.invoiceNumber}: ${formatMoney(amount)} ${change.method === 'unspecified' ? '(method not specified)' : `by ${change.method}`}`,
      )
    } else {
      assertOpen(row.status, 'cancelled')
      if (row.amountPaid > 0) {
        throw new AppError(
          'INVALID_TRANSITION',
          'This invoice has payments recorded: it cannot be cancelled',
        )
      }
      await tx
        .update(invoices)
        .set({ status: 'cancelled', cancelledAt: now, cancelReason: change.reason, updatedAt: now })
        .where(eq(invoices.id, row.id))
      await audit('invoice.cancelled', `Cancelled invoice ${row.invoiceNumber}: ${change.reason}`)
    }
    const { detail } = await loadInvoiceDetail(tx, row.id, hospital)
    return detail
  })
}
