import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * Platform security log (ASVS V16): sign-ins, failures, lockouts, sign-outs, password and
 * two-factor changes, suspensions, role changes, exports. Append-only: the application's
 * roles may SELECT and INSERT, never UPDATE or DELETE (drizzle/0004_security.sql).
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    event: text('event').notNull(),
    userId: text('user_id'),
    email: text('email'),
    hospitalId: uuid('hospital_id'),
    impersonatorUserId: text('impersonator_user_id'),
    ip: text('ip'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('security_events_created_idx').on(t.createdAt),
    index('security_events_user_idx').on(t.userId, t.createdAt),
  ],
)

/**
 * Sign-in throttling state, shared by every instance (ENGINEERING.md "Runs as many
 * instances"): one row per key (account+IP pair, account, IP) with its failures in the
 * current window and, once over the limit, when it may try again.
 */
export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
})

export const emailStatuses = ['sandbox', 'sent', 'failed'] as const

/**
 * Every email the platform sends. With the sandbox driver (no SMTP configured) the message
 * stays here for the super admin to read; with SMTP only its envelope and status are kept.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    purpose: text('purpose').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    driver: text('driver').notNull(),
    status: text('status', { enum: emailStatuses }).notNull(),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('email_outbox_created_idx').on(t.createdAt)],
)
