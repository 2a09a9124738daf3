import { sql } from 'drizzle-orm'
import {
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { activityTypes } from '../../../shared/live-monitoring'
import { hospitals } from './hospitals'

/*
 * Live monitoring (issue 29, drizzle/0033_live_monitoring.sql, docs/decisions/040): tenant
 * tables under forced RLS. Activities are written by recordActivity in the same transaction as
 * the action; presence by the sign-in, sign-out, heartbeat and request paths.
 */

export const activities = pgTable(
  'activities',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    userId: text('user_id').notNull(),
    activityType: text('activity_type', { enum: activityTypes }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    data: jsonb('data')
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default({}),
    dedupeKey: text('dedupe_key'),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    index('activities_hospital_occurred_idx').on(t.hospitalId, t.occurredAt.desc()),
    index('activities_hospital_user_occurred_idx').on(t.hospitalId, t.userId, t.occurredAt),
    uniqueIndex('activities_hospital_dedupe_idx').on(t.hospitalId, t.dedupeKey),
  ],
)

export const userPresence = pgTable(
  'user_presence',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    isOnline: boolean('is_online').notNull().default(false),
    lastActivity: timestamp('last_activity', { withTimezone: true }),
    loginTime: timestamp('login_time', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.hospitalId, t.userId] })],
)
