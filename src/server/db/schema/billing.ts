import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { invoiceKinds, invoiceStatuses, recordedPaymentMethods } from '../../../shared/billing'
import { appointments, services } from './appointments'
import { hospitals } from './hospitals'
import { patients } from './patients'

/*
 * Billing (issue 26, docs/decisions/026-appointments-billing.md,
 * drizzle/0017_appointments_billing.sql). Tenant tables: hospital_id first in every key, RLS
 * forced, app_user only. Every amount is bigint paise, computed by the server.
 */

/** Gapless invoice numbers per hospital per financial year ('2026-27'): locked by the insert. */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    hospitalId: uuid('hospital_id').notNull(),
    financialYear: text('financial_year').notNull(),
    lastNumber: integer('last_number').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.financialYear] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    check('invoice_counters_year_check', sql`financial_year ~ '^[0-9]{4}-[0-9]{2}$'`),
  ],
)

export const invoices = pgTable(
  'invoices',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    /** '<prefix>/<financial year>/<sequence, 6 digits>', e.g. SMH/2026-27/000123. */
    invoiceNumber: text('invoice_number').notNull(),
    financialYear: text('financial_year').notNull(),
    sequence: integer('sequence').notNull(),
    patientId: uuid('patient_id'),
    /** The name billed (kept when the patient is erased). */
    patientName: text('patient_name').notNull(),
    /** The patient's GST state code: IGST when it differs from the hospital's. */
    patientStateCode: text('patient_state_code'),
    appointmentId: uuid('appointment_id'),
    kind: text('kind', { enum: invoiceKinds }).notNull(),
    status: text('status', { enum: invoiceStatuses }).notNull().default('pending'),
    subtotal: bigint('subtotal', { mode: 'number' }).notNull(),
    discountTotal: bigint('discount_total', { mode: 'number' }).notNull().default(0),
    /**
     * The value of the taxable lines (GST rate above 0) after discounts; exempt lines are not
     * taxable value (drizzle/0042_gst_invoices.sql, src/shared/gst-summary.ts).
     */
    taxableTotal: bigint('taxable_total', { mode: 'number' }).notNull(),
    cgst: bigint('cgst', { mode: 'number' }).notNull().default(0),
    sgst: bigint('sgst', { mode: 'number' }).notNull().default(0),
    igst: bigint('igst', { mode: 'number' }).notNull().default(0),
    /** The total payable, paise (the spec's `amount`). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    amountPaid: bigint('amount_paid', { mode: 'number' }).notNull().default(0),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    notes: text('notes'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({
      columns: [t.hospitalId, t.patientId],
      foreignColumns: [patients.hospitalId, patients.id],
    }),
    // ON DELETE SET NULL (appointment_id) in the migration.
    foreignKey({
      columns: [t.hospitalId, t.appointmentId],
      foreignColumns: [appointments.hospitalId, appointments.id],
    }),
    uniqueIndex('invoices_hospital_number_idx').on(t.hospitalId, t.invoiceNumber),
    uniqueIndex('invoices_hospital_year_sequence_idx').on(
      t.hospitalId,
      t.financialYear,
      t.sequence,
    ),
    index('invoices_hospital_created_idx').on(t.hospitalId, t.createdAt.desc(), t.id.desc()),
    index('invoices_hospital_status_created_idx').on(
      t.hospitalId,
      t.status,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('invoices_hospital_patient_idx').on(t.hospitalId, t.patientId),
    index('invoices_hospital_due_idx')
      .on(t.hospitalId, t.dueDate)
      .where(sql`status = 'pending'`),
    check('invoices_status_check', sql`status in ('pending', 'paid', 'overdue', 'cancelled')`),
    check('invoices_kind_check', sql`kind in ('tax_invoice', 'bill_of_supply')`),
    check(
      'invoices_amounts_check',
      sql`amount >= 0 and amount_paid >= 0 and amount_paid <= amount`,
    ),
    check('invoices_due_check', sql`due_date >= issue_date`),
    check('invoices_cancel_check', sql`(status = 'cancelled') = (cancelled_at is not null)`),
    check('invoices_year_check', sql`financial_year ~ '^[0-9]{4}-[0-9]{2}$'`),
  ],
)

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    hospitalId: uuid('hospital_id').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    lineNo: integer('line_no').notNull(),
    serviceId: uuid('service_id'),
    name: text('name').notNull(),
    /** SAC or HSN code. */
    code: text('code'),
    quantity: integer('quantity').notNull(),
    unitPrice: bigint('unit_price', { mode: 'number' }).notNull(),
    discount: bigint('discount', { mode: 'number' }).notNull().default(0),
    gstRate: integer('gst_rate').notNull(),
    taxableValue: bigint('taxable_value', { mode: 'number' }).notNull(),
    tax: bigint('tax', { mode: 'number' }).notNull(),
    total: bigint('total', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.invoiceId, t.lineNo] }),
    foreignKey({
      columns: [t.hospitalId, t.invoiceId],
      foreignColumns: [invoices.hospitalId, invoices.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.hospitalId, t.serviceId],
      foreignColumns: [services.hospitalId, services.id],
    }),
    check('invoice_lines_quantity_check', sql`quantity between 1 and 1000`),
    check('invoice_lines_price_check', sql`unit_price between 0 and 1000000000`),
    check('invoice_lines_discount_check', sql`discount >= 0 and discount <= quantity * unit_price`),
    check('invoice_lines_gst_rate_check', sql`gst_rate in (0, 5, 12, 18)`),
    check('invoice_lines_name_check', sql`length(btrim(name)) between 1 and 200`),
  ],
)

export const payments = pgTable(
  'payments',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    invoiceId: uuid('invoice_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    method: text('method', { enum: recordedPaymentMethods }).notNull(),
    reference: text('reference'),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull().defaultNow(),
    recordedBy: uuid('recorded_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({
      columns: [t.hospitalId, t.invoiceId],
      foreignColumns: [invoices.hospitalId, invoices.id],
    }).onDelete('cascade'),
    index('payments_hospital_invoice_idx').on(t.hospitalId, t.invoiceId),
    check('payments_amount_check', sql`amount > 0`),
    check(
      'payments_method_check',
      sql`method in ('cash', 'upi', 'card', 'bank_transfer', 'insurance', 'unspecified')`,
    ),
  ],
)
