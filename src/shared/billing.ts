/**
 * Billing's shared vocabulary (issue 26, docs/decisions/026-appointments-billing.md): invoice
 * statuses and kinds, GST rates, payment methods and the limits the server enforces. The
 * database's CHECK constraints (drizzle/0017_appointments_billing.sql) mirror these lists.
 * Every amount is an integer number of paise.
 */

/** Spec section 4: pending (yellow), paid (green), overdue (red), cancelled (grey). */
export const invoiceStatuses = ['pending', 'paid', 'overdue', 'cancelled'] as const
export type InvoiceStatus = (typeof invoiceStatuses)[number]

/**
 * A Bill of Supply when every line is GST-exempt (healthcare services by a clinical
 * establishment, SAC 9993), else a Tax Invoice.
 */
export const invoiceKinds = ['tax_invoice', 'bill_of_supply'] as const
export type InvoiceKind = (typeof invoiceKinds)[number]

export const gstRates = [0, 5, 12, 18] as const
export type GstRate = (typeof gstRates)[number]

/** The methods a cashier chooses from (Mark Paid's list). */
export const paymentMethods = ['cash', 'upi', 'card', 'bank_transfer', 'insurance'] as const
export type PaymentMethod = (typeof paymentMethods)[number]

/**
 * The methods a recorded payment may have: the chosen ones, and 'unspecified' for the spec's
 * Mark Paid (`{ "status": "paid" }` alone), which says nothing about how the money came.
 */
export const recordedPaymentMethods = [...paymentMethods, 'unspecified'] as const
export type RecordedPaymentMethod = (typeof recordedPaymentMethods)[number]

export const paymentMethodLabels: Record<RecordedPaymentMethod, string> = {
  cash: 'Cash',
  upi: 'UPI',
  card: 'Card',
  bank_transfer: 'Bank transfer',
  insurance: 'Insurance',
  unspecified: 'Not specified',
}

/** ₹1 crore in paise: the most one line's unit price may be. */
export const MAX_LINE_PRICE_PAISE = 1_000_000_000
/** The most of one line's quantity. */
export const MAX_LINE_QUANTITY = 1000
/** SAC of healthcare services (exempt when by a clinical establishment). */
export const HEALTHCARE_SAC = '9993'
