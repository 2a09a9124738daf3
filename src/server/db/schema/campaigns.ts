import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { campaignStatuses, campaignTypes } from '../../../shared/campaign-labels'
import { hospitals } from './hospitals'

/*
 * Marketing campaigns (issue 28, docs/decisions/033-campaigns.md, drizzle/0028_campaigns.sql).
 * Tenant tables: hospital_id first in every key, RLS forced. Money is bigint paise. Leads and
 * conversions are not stored: they are counted from leads by the link keys.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    type: text('type', { enum: campaignTypes }).notNull(),
    status: text('status', { enum: campaignStatuses }).notNull().default('draft'),
    budget: bigint('budget', { mode: 'number' }).notNull().default(0),
    spent: bigint('spent', { mode: 'number' }).notNull().default(0),
    startDate: date('start_date').notNull(),
    endDate: date('end_date'),
    targetAudience: jsonb('target_audience')
      .$type<Record<string, string | string[]>>()
      .notNull()
      .default({}),
    metaFormId: text('meta_form_id'),
    leadCampaign: text('lead_campaign').notNull(),
    utmCampaign: text('utm_campaign'),
    manualLeads: integer('manual_leads'),
    manualConversions: integer('manual_conversions'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by'),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    uniqueIndex('campaigns_hospital_name_idx').on(t.hospitalId, t.name),
    uniqueIndex('campaigns_hospital_lead_campaign_idx').on(t.hospitalId, t.leadCampaign),
    uniqueIndex('campaigns_hospital_meta_form_idx')
      .on(t.hospitalId, t.metaFormId)
      .where(sql`meta_form_id is not null`),
    index('campaigns_hospital_created_idx').on(t.hospitalId, t.createdAt.desc(), t.id.desc()),
    check('campaigns_status_check', sql`status in ('draft', 'active', 'paused', 'completed')`),
    check('campaigns_budget_check', sql`budget >= 0`),
    check('campaigns_spent_check', sql`spent >= 0`),
    check('campaigns_dates_check', sql`end_date is null or end_date >= start_date`),
  ],
)

/** Spend recorded for one day of one campaign. */
export const campaignSpend = pgTable(
  'campaign_spend',
  {
    hospitalId: uuid('hospital_id').notNull(),
    campaignId: uuid('campaign_id').notNull(),
    day: date('day').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.campaignId, t.day] }),
    foreignKey({
      columns: [t.hospitalId, t.campaignId],
      foreignColumns: [campaigns.hospitalId, campaigns.id],
    }).onDelete('cascade'),
    check('campaign_spend_amount_check', sql`amount >= 0`),
  ],
)
