import { sql } from 'drizzle-orm'
import { boolean, check, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { hospitals } from './hospitals'

/**
 * The hospital's settings beyond those kept on `hospitals` and `lead_settings` (issue 27,
 * drizzle/0024): the region, the security policy and data retention. A tenant table under forced RLS, one row
 * per hospital; no row means the defaults (spec section 9), and the first save inserts it.
 */
export const hospitalSettings = pgTable(
  'hospital_settings',
  {
    hospitalId: uuid('hospital_id')
      .primaryKey()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    region: text('region').notNull().default('India'),
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    sessionTimeout: boolean('session_timeout').notNull().default(true),
    sessionHours: integer('session_hours').notNull().default(8),
    autoBackups: boolean('auto_backups').notNull().default(true),
    backupRetentionDays: integer('backup_retention_days').notNull().default(30),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [
    check('hospital_settings_region_check', sql`length(${t.region}) BETWEEN 1 AND 60`),
    check('hospital_settings_session_hours_check', sql`${t.sessionHours} BETWEEN 1 AND 72`),
    check(
      'hospital_settings_backup_retention_days_check',
      sql`${t.backupRetentionDays} BETWEEN 1 AND 365`,
    ),
  ],
)

/** A hospital's settings when it has no row yet (spec section 9, "Settings defaults"). */
export const hospitalSettingsDefaults = {
  region: 'India',
  requireTwoFactor: false,
  sessionTimeout: true,
  sessionHours: 8,
  autoBackups: true,
  backupRetentionDays: 30,
} as const
