import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { hospitals } from './hospitals'

/**
 * Lead-generation campaign requests (issue 28, drizzle/0029_lead_generation_requests.sql,
 * docs/decisions/034). A tenant table under forced RLS. daily_budget is 100 times the rupee
 * amount; the expected leads per day and the one-time cost (in rupees) are the server's figures.
 */
export const leadGenerationRequests = pgTable(
  'lead_generation_requests',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    dailyBudget: integer('daily_budget').notNull(),
    hasCreative: boolean('has_creative').notNull().default(false),
    needsCreative: boolean('needs_creative').notNull().default(false),
    hasVideo: boolean('has_video').notNull().default(false),
    needsVideoEditing: boolean('needs_video_editing').notNull().default(false),
    notes: text('notes'),
    expectedLeadsMin: integer('expected_leads_min').notNull(),
    expectedLeadsMax: integer('expected_leads_max').notNull(),
    oneTimeCost: integer('one_time_cost').notNull(),
    status: text('status').notNull().default('requested'),
    statusNote: text('status_note'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    statusChangedBy: text('status_changed_by'),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'lead_generation_requests_pkey', columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    index('lead_generation_requests_hospital_created_idx').on(t.hospitalId, t.createdAt),
    check(
      'lead_generation_requests_status_check',
      sql`status in ('requested', 'approved', 'active', 'paused', 'completed')`,
    ),
    check('lead_generation_requests_creative_check', sql`not (has_creative and needs_creative)`),
    check('lead_generation_requests_video_check', sql`not (has_video and needs_video_editing)`),
  ],
)
