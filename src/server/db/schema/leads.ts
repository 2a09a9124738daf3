import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
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
import {
  communicationDirections,
  communicationStatuses,
  communicationTypes,
  leadPriorities,
  leadSources,
  leadStatuses,
} from '../../../shared/schemas/leads'
import { providerNames } from '../../../shared/messaging'
import { hospitals } from './hospitals'
import { patients } from './patients'

/** The name in lower case with single spaces: what a search is matched against. */
const searchableName = sql`lower(regexp_replace(btrim(name), '\\s+', ' ', 'g'))`

/**
 * A tenant table (RLS forced, drizzle/0009_leads.sql): an enquiry from an ad, a referral, a
 * walk-in or a phone call. One lead per phone number per hospital: a second enquiry from the
 * same number is merged into the first (its text becomes a system communication).
 */
export const leads = pgTable(
  'leads',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    email: text('email'),
    /** E.164, e.g. +919876543210. */
    phone: text('phone').notNull(),
    status: text('status', { enum: leadStatuses }).notNull().default('new'),
    source: text('source', { enum: leadSources }).notNull(),
    priority: text('priority', { enum: leadPriorities }).notNull().default('medium'),
    serviceInterest: text('service_interest'),
    campaign: text('campaign'),
    notes: text('notes'),
    metaLeadId: text('meta_lead_id'),
    metaFormId: text('meta_form_id'),
    /** A user of the same hospital (users is a platform table, so no foreign key; checked on write). */
    assignedToUserId: text('assigned_to_user_id'),
    /** The patient this lead became (POST /api/leads/:id/convert). */
    patientId: uuid('patient_id'),
    /** The newest communication's time, kept by the service in the same transaction. */
    lastContactAt: timestamp('last_contact_at', { withTimezone: true }),
    /**
     * Issue 27 (drizzle/0025): outbound contacts so far (kept by a trigger on communications),
     * and whether they went beyond the hospital's max contact attempts.
     */
    contactAttempts: integer('contact_attempts').notNull().default(0),
    contactLimitExceeded: boolean('contact_limit_exceeded').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // Search keys, computed by PostgreSQL (as patients: docs/decisions/011).
    nameSearch: text('name_search').generatedAlwaysAs(searchableName),
    phoneDigits: text('phone_digits').generatedAlwaysAs(sql`regexp_replace(phone, '\\D', '', 'g')`),
    /** From when a follow-up is counted: the last contact, or the creation if never contacted. */
    followUpFrom: timestamp('follow_up_from', { withTimezone: true }).generatedAlwaysAs(
      sql`coalesce(last_contact_at, created_at)`,
    ),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }),
    foreignKey({
      columns: [t.hospitalId, t.patientId],
      foreignColumns: [patients.hospitalId, patients.id],
    }),
    // One lead per phone per hospital; Meta records once per (hospital, lead id).
    uniqueIndex('leads_hospital_phone_idx').on(t.hospitalId, t.phone),
    uniqueIndex('leads_hospital_meta_lead_idx').on(t.hospitalId, t.metaLeadId),
    // Newest first (the list's order: DESC, so NULLS FIRST as ORDER BY ... DESC means) and its
    // cursor, also per status, per source and per assignee: each filter reads one index range
    // in order and stops at the page, however many leads match.
    index('leads_hospital_recent_idx').on(
      t.hospitalId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('leads_hospital_status_recent_idx').on(
      t.hospitalId,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('leads_hospital_source_recent_idx').on(
      t.hospitalId,
      t.source,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('leads_hospital_assignee_recent_idx').on(
      t.hospitalId,
      t.assignedToUserId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Follow-ups due or overdue (GET /api/stats): a range of the waiting leads only.
    index('leads_hospital_follow_up_idx')
      .on(t.hospitalId, t.followUpFrom)
      .where(sql`status in ('contacted', 'follow-up')`),
    index('leads_hospital_name_search_prefix_idx').on(
      t.hospitalId,
      t.nameSearch.op('text_pattern_ops'),
    ),
    index('leads_hospital_email_prefix_idx').on(t.hospitalId, t.email.op('text_pattern_ops')),
    index('leads_hospital_phone_digits_prefix_idx').on(
      t.hospitalId,
      t.phoneDigits.op('text_pattern_ops'),
    ),
    // The lists of shared/schemas/leads.ts, and the state machine's rule that a lead is
    // converted exactly when it points at its patient (migration 0015; constraints.api.test.ts).
    check(
      'leads_status_check',
      sql`status in ('new', 'contacted', 'follow-up', 'converted', 'rejected')`,
    ),
    check(
      'leads_source_check',
      sql`source in ('meta-facebook', 'meta-instagram', 'google-ads', 'referral', 'manual', 'walk-in', 'csv-import', 'phone')`,
    ),
    check('leads_priority_check', sql`priority in ('high', 'medium', 'low')`),
    check('leads_converted_patient_check', sql`(status = 'converted') = (patient_id is not null)`),
  ],
)

/** A tenant table (RLS forced): calls, messages and system notes on a lead, newest first. */
export const communications = pgTable(
  'communications',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    /** The lead or the patient it concerns (at least one; both after a conversion). */
    leadId: uuid('lead_id'),
    patientId: uuid('patient_id'),
    type: text('type', { enum: communicationTypes }).notNull(),
    direction: text('direction', { enum: communicationDirections }).notNull(),
    content: text('content').notNull(),
    status: text('status', { enum: communicationStatuses }).notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** Who recorded it (null for the system: webhooks, imports, merges). */
    createdByUserId: text('created_by_user_id'),
    /** Inbound messages not yet seen by staff count on the bell. */
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // Messaging (issue 25, drizzle/0016_messaging.sql): set for messages that really leave or
    // arrive through a provider; null for call notes and records typed by staff.
    /** The person's address: E.164 phone for WhatsApp and SMS, lower-case email for email. */
    contactAddress: text('contact_address'),
    provider: text('provider', { enum: providerNames }),
    /** The provider's id (Twilio SID, WhatsApp wamid, SendGrid message id): unique per provider. */
    providerMessageId: text('provider_message_id'),
    /** Why it failed: the provider's code and words a receptionist understands. */
    failureCode: text('failure_code'),
    failureReason: text('failure_reason'),
    batchId: uuid('batch_id'),
    templateId: uuid('template_id'),
    /** Went to the Sandbox Outbox (no credentials): never reached a person. */
    sandbox: boolean('sandbox').notNull().default(false),
    /** Held until then (quiet hours for promotional messages). */
    sendAfter: timestamp('send_after', { withTimezone: true }),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    /**
     * A booking page's one-time code goes to a visitor who is neither a lead nor a patient yet:
     * the booking hold it was sent for (drizzle/0019_booking_codes.sql; the foreign key to
     * booking_holds, ON DELETE CASCADE, is in the migration).
     */
    bookingHoldId: uuid('booking_hold_id'),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({
      columns: [t.hospitalId, t.leadId],
      foreignColumns: [leads.hospitalId, leads.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.hospitalId, t.patientId],
      foreignColumns: [patients.hospitalId, patients.id],
    }).onDelete('cascade'),
    index('communications_hospital_lead_idx').on(t.hospitalId, t.leadId, t.createdAt.desc()),
    index('communications_hospital_patient_idx')
      .on(t.hospitalId, t.patientId, t.createdAt.desc())
      .where(sql`patient_id is not null`),
    index('communications_hospital_unread_idx')
      .on(t.hospitalId)
      .where(sql`direction = 'inbound' and read_at is null`),
    // The WhatsApp 24-hour window: the contact's last inbound message on a channel.
    index('communications_hospital_inbound_idx')
      .on(t.hospitalId, t.type, t.contactAddress, t.createdAt.desc())
      .where(sql`direction = 'inbound' and contact_address is not null`),
    index('communications_hospital_booking_hold_idx')
      .on(t.hospitalId, t.bookingHoldId)
      .where(sql`booking_hold_id is not null`),
    index('communications_hospital_batch_idx')
      .on(t.hospitalId, t.batchId)
      .where(sql`batch_id is not null`),
    // A provider's callbacks find their message by its id; duplicates are dropped by it.
    uniqueIndex('communications_provider_message_idx')
      .on(t.hospitalId, t.provider, t.providerMessageId)
      .where(sql`provider_message_id is not null`),
    check(
      'communications_type_check',
      sql`type in ('email', 'phone', 'call', 'whatsapp', 'sms', 'system')`,
    ),
    check('communications_direction_check', sql`direction in ('inbound', 'outbound')`),
    check(
      'communications_status_check',
      sql`status in ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'received', 'logged')`,
    ),
    check(
      'communications_subject_check',
      sql`lead_id is not null or patient_id is not null or booking_hold_id is not null`,
    ),
    check(
      'communications_provider_check',
      sql`provider in ('sandbox', 'meta', 'twilio', 'msg91', 'smtp', 'sendgrid')`,
    ),
  ],
)

/** A hospital's lead settings (a tenant table, one row per hospital; absent = defaults). */
export const leadSettings = pgTable(
  'lead_settings',
  {
    hospitalId: uuid('hospital_id').notNull().primaryKey(),
    /** A follow-up is due this many days after the last contact. */
    followUpDays: integer('follow_up_days').notNull().default(3),
    /** Issue 27 (drizzle/0024): Settings → General's lead management. */
    autoAssignLeads: boolean('auto_assign_leads').notNull().default(false),
    priorityScoring: boolean('priority_scoring').notNull().default(true),
    maxContactAttempts: integer('max_contact_attempts').notNull().default(5),
    /** Round-robin's cursor: the receptionist who got the last auto-assigned lead. */
    lastAssignedUserId: text('last_assigned_user_id'),
  },
  (t) => [
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }),
    check('lead_settings_max_contact_attempts_check', sql`max_contact_attempts BETWEEN 1 AND 20`),
  ],
)
