import { sql } from 'drizzle-orm'
import {
  check,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { defaultWorkingHours, type WorkingHours } from '../../../shared/scheduling'

export const hospitalTypes = ['general', 'specialty', 'clinic', 'diagnostic_center'] as const
export const subscriptionStatuses = ['active', 'trial', 'cancelled', 'past_due'] as const

/** The tenant. A platform table: read by super admins and by sign-in, so not under RLS. */
export const hospitals = pgTable(
  'hospitals',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** Who the first admin is (issue 27): invited by email when the super admin adds the hospital. */
    adminEmail: text('admin_email'),
    phone: text('phone'),
    address: text('address'),
    hospitalType: text('hospital_type', { enum: hospitalTypes }).notNull().default('general'),
    licenseNumber: text('license_number'),
    accreditation: text('accreditation'),
    website: text('website'),
    establishedYear: integer('established_year'),
    bedCapacity: integer('bed_capacity'),
    staffCount: integer('staff_count'),
    maxUsers: integer('max_users').notNull().default(5),
    maxPatients: integer('max_patients'),
    /** Price per user per month in paise. */
    pricePerUser: integer('price_per_user').notNull().default(240000),
    currency: text('currency').notNull().default('INR'),
    plan: text('plan').notNull().default('starter'),
    subscriptionStatus: text('subscription_status', { enum: subscriptionStatuses })
      .notNull()
      .default('active'),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    /** When subscription_status last changed (a trigger keeps it; drizzle/0027): read-only mode. */
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    timeZone: text('time_zone').notNull().default('Asia/Kolkata'),
    /**
     * Issue 26 (drizzle/0017): the public booking page's /book/<slug>, and the invoice prefix
     * (SMH/2026-27/000123); both set from the name by a BEFORE INSERT trigger when not given.
     */
    slug: text('slug'),
    invoicePrefix: text('invoice_prefix'),
    /** GSTIN, shown on a Tax Invoice. */
    gstin: text('gstin'),
    /** GST state code ('27' Maharashtra): CGST + SGST within it, IGST across states. */
    stateCode: text('state_code'),
    /** The UPI id (VPA) an invoice's QR code pays. */
    upiId: text('upi_id'),
    /** The grievance officer (DPDP Act 2023), shown on the booking page (drizzle/0021). */
    grievanceName: text('grievance_name'),
    grievanceEmail: text('grievance_email'),
    workingHours: jsonb('working_hours')
      .$type<WorkingHours>()
      .notNull()
      .default(defaultWorkingHours),
    /** Minutes before an appointment that reminders go. */
    reminderOffsets: integer('reminder_offsets')
      .array()
      .notNull()
      .default(sql`'{1440,120}'`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // planIds (shared/plans.ts) and the lists above (migration 0015; constraints.api.test.ts).
  (t) => [
    uniqueIndex('hospitals_slug_idx').on(t.slug),
    check('hospitals_slug_check', sql`slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 60`),
    check('hospitals_gstin_check', sql`gstin ~ '^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$'`),
    check('hospitals_state_code_check', sql`state_code ~ '^[0-9]{2}$'`),
    check(
      'hospitals_upi_id_check',
      sql`upi_id ~ '^[a-zA-Z0-9._-]{2,64}@[a-zA-Z][a-zA-Z0-9]{1,63}$'`,
    ),
    check('hospitals_invoice_prefix_check', sql`invoice_prefix ~ '^[A-Z0-9]{1,10}$'`),
    check(
      'hospitals_plan_check',
      sql`plan in ('starter', 'professional', 'enterprise', 'hospital_enterprise', 'custom_enterprise')`,
    ),
    check(
      'hospitals_subscription_status_check',
      sql`subscription_status in ('active', 'trial', 'cancelled', 'past_due')`,
    ),
    check(
      'hospitals_hospital_type_check',
      sql`hospital_type in ('general', 'specialty', 'clinic', 'diagnostic_center')`,
    ),
    check('hospitals_currency_check', sql`currency ~ '^[A-Z]{3}$'`),
  ],
)
