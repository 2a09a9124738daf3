import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { session, user } from './auth'
import { hospitals } from './hospitals'

/*
 * Support access (issue 27, drizzle/0027_support_access.sql, docs/decisions/032): platform
 * tables like onboarding_tasks. The hospital grants, the super admin enters under a grant.
 */

/** A hospital admin's permission for the platform's super admins to act inside the hospital. */
export const supportAccessGrants = pgTable(
  'support_access_grants',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    grantedByUserId: text('granted_by_user_id').notNull(),
    reason: text('reason').notNull(),
    hours: integer('hours').notNull(),
    /** Issue 39 (migration 0035): 'support' acts as the support role, 'full_admin' as admin. */
    scope: text('scope', { enum: ['support', 'full_admin'] })
      .notNull()
      .default('support'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedByUserId: text('revoked_by_user_id'),
  },
  (t) => [index('support_access_grants_hospital_idx').on(t.hospitalId, t.createdAt)],
)

/** A super admin's session inside a hospital; checked against its grant on every request. */
export const supportSessions = pgTable(
  'support_sessions',
  {
    sessionId: text('session_id')
      .primaryKey()
      .references(() => session.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => supportAccessGrants.id, { onDelete: 'cascade' }),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('support_sessions_grant_idx').on(t.grantId)],
)
