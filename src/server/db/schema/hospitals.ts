import { sql } from 'drizzle-orm'
import { check, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

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
    timeZone: text('time_zone').notNull().default('Asia/Kolkata'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // planIds (shared/plans.ts) and the lists above (migration 0015; constraints.api.test.ts).
  () => [
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
