import { sql } from 'drizzle-orm'
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { demoRequestSources, preferredTimes } from '../../../shared/schemas/demo-requests'

/**
 * Demo requests from the signed-out marketing site. A platform table: no hospital owns
 * a request (the visitor is not a tenant yet), so no hospital_id and no RLS; only super
 * admins read it.
 */
export const demoRequests = pgTable(
  'demo_requests',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    organization: text('organization').notNull(),
    /** E.164, e.g. +919876543210. */
    mobile: text('mobile').notNull(),
    email: text('email'),
    city: text('city'),
    preferredTime: text('preferred_time', { enum: preferredTimes }).notNull().default('any'),
    source: text('source', { enum: demoRequestSources }).notNull().default('landing'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('demo_requests_created_idx').on(t.createdAt, t.id),
    // The lists of shared/schemas/demo-requests.ts (migration 0015; constraints.api.test.ts).
    check(
      'demo_requests_preferred_time_check',
      sql`preferred_time in ('any', 'morning', 'afternoon', 'evening')`,
    ),
    check('demo_requests_source_check', sql`source in ('landing', 'pricing', 'add-ons')`),
  ],
)
