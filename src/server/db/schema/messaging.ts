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
  consentActions,
  consentMethods,
  emailProviders,
  messageChannels,
  reminderStatuses,
  reminderTypes,
  smsProviders,
  templateApprovalStatuses,
  templateCategories,
  whatsappProviders,
} from '../../../shared/messaging'
import { appointments } from './appointments'
import { hospitals } from './hospitals'
import { leads } from './leads'
import { patients } from './patients'

/*
 * Messaging (issue 25, docs/decisions/025-messaging.md, drizzle/0016_messaging.sql). Every
 * table here but messaging_routes is a tenant table: hospital_id first in every key, RLS
 * forced, app_user only. Outbound and inbound messages themselves are rows of communications
 * (schema/leads.ts).
 */

/**
 * Which provider carries each channel for a hospital, with its settings. Non-secret settings
 * (phone number id, account SID, sender, SMTP host) are in `settings`; secrets (tokens, keys,
 * passwords) only as encryptSecret() output in `secrets`, one entry per field, context
 * `messaging:<hospital id>:<field>`. No API returns a secret, only that it is set and its last 4.
 */
export const messagingConnections = pgTable(
  'messaging_connections',
  {
    hospitalId: uuid('hospital_id').primaryKey(),
    whatsappProvider: text('whatsapp_provider', { enum: whatsappProviders })
      .notNull()
      .default('sandbox'),
    smsProvider: text('sms_provider', { enum: smsProviders }).notNull().default('sandbox'),
    emailProvider: text('email_provider', { enum: emailProviders }).notNull().default('sandbox'),
    settings: jsonb('settings')
      .$type<Record<string, string | number | boolean>>()
      .notNull()
      .default({}),
    secrets: jsonb('secrets').$type<Record<string, string>>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    check(
      'messaging_connections_whatsapp_check',
      sql`whatsapp_provider in ('sandbox', 'meta', 'twilio')`,
    ),
    check('messaging_connections_sms_check', sql`sms_provider in ('sandbox', 'twilio', 'msg91')`),
    check(
      'messaging_connections_email_check',
      sql`email_provider in ('sandbox', 'smtp', 'sendgrid')`,
    ),
  ],
)

/** messaging_routes.provider of a WhatsApp Cloud API phone number id. */
export const WHATSAPP_PHONE_ROUTE = 'meta'
/** messaging_routes.provider of a WhatsApp Business Account id (template status updates). */
export const WHATSAPP_ACCOUNT_ROUTE = 'meta-waba'

/**
 * A platform table like meta_pages: routes a provider's own id in a webhook that carries no
 * hospital (the WhatsApp Cloud API's phone_number_id, or the business account id of a template
 * status update) to its hospital: the index of proven WhatsApp ids (issue 39, drizzle/0039).
 * A row is written when the hospital's own access token proved the id with Meta's Graph API;
 * one hospital per external id, moved only by another hospital's fresh proof. Read and moved by
 * app_platform; a hospital writes only its own rows. verify_token_sha256 (on the phone number's
 * row) finds the hospital of a subscription handshake without decrypting any secret.
 */
export const messagingRoutes = pgTable(
  'messaging_routes',
  {
    provider: text('provider').notNull(),
    externalId: text('external_id').notNull(),
    hospitalId: uuid('hospital_id').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    verifyTokenSha256: text('verify_token_sha256'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null for a route saved before ids were proven (drizzle/0039). */
    lastProvenAt: timestamp('last_proven_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.externalId] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    index('messaging_routes_hospital_idx').on(t.hospitalId),
    index('messaging_routes_verify_token_idx')
      .on(t.verifyTokenSha256)
      .where(sql`verify_token_sha256 is not null`),
  ],
)

/**
 * A message template: the spec's welcome, appointment-reminder and follow-up per channel
 * (seeded per hospital, editable) and any an admin adds. A WhatsApp template that opens a
 * conversation names the provider's approved template (Meta name or Twilio Content SID), its
 * language and variables; an SMS one its DLT template id (India: the text sent must match it).
 */
export const messageTemplates = pgTable(
  'message_templates',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    /** 'welcome' | 'appointment-reminder' | 'follow-up' for the spec's; null for added ones. */
    key: text('key'),
    name: text('name').notNull(),
    channel: text('channel', { enum: messageChannels }).notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    category: text('category', { enum: templateCategories }).notNull(),
    providerTemplateName: text('provider_template_name'),
    contentSid: text('content_sid'),
    language: text('language').notNull().default('en'),
    /** Variable names in order: {{1}} is variables[0] (e.g. ['name']). */
    variables: jsonb('variables').$type<string[]>().notNull().default([]),
    dltTemplateId: text('dlt_template_id'),
    approvalStatus: text('approval_status', { enum: templateApprovalStatuses })
      .notNull()
      .default('not_required'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    uniqueIndex('message_templates_hospital_channel_name_idx').on(t.hospitalId, t.channel, t.name),
    uniqueIndex('message_templates_hospital_key_idx')
      .on(t.hospitalId, t.channel, t.key)
      .where(sql`key is not null`),
    check('message_templates_channel_check', sql`channel in ('whatsapp', 'sms', 'email')`),
    check(
      'message_templates_category_check',
      sql`category in ('utility', 'marketing', 'service_implicit', 'service_explicit', 'promotional', 'transactional')`,
    ),
    check(
      'message_templates_approval_check',
      sql`approval_status in ('not_required', 'pending', 'approved', 'rejected', 'paused')`,
    ),
  ],
)

/** A bulk send (POST /api/leads/bulk/message): its recipients are communications with its id. */
export const messageBatches = pgTable(
  'message_batches',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    channel: text('channel', { enum: messageChannels }).notNull(),
    templateId: uuid('template_id'),
    subject: text('subject'),
    content: text('content').notNull(),
    /** Recipients asked for, and those queued (the rest were skipped). */
    requested: integer('requested').notNull(),
    queued: integer('queued').notNull(),
    /** Skipped recipients by reason, e.g. { opted_out: 2, no_email: 1 }. */
    skipped: jsonb('skipped').$type<Record<string, number>>().notNull().default({}),
    createdByUserId: text('created_by_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    index('message_batches_hospital_created_idx').on(t.hospitalId, t.createdAt.desc()),
    check('message_batches_channel_check', sql`channel in ('whatsapp', 'sms', 'email')`),
  ],
)

/**
 * DPDP consent (Act 2023): every opt-in and opt-out is kept, never overwritten; a contact's
 * current choice on a channel is its newest record (none: not opted out).
 */
export const consentRecords = pgTable(
  'consent_records',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    channel: text('channel', { enum: messageChannels }).notNull(),
    contactAddress: text('contact_address').notNull(),
    purpose: text('purpose').notNull().default('messaging'),
    action: text('action', { enum: consentActions }).notNull(),
    method: text('method', { enum: consentMethods }).notNull(),
    /** The version of the notice the person saw when opting in. */
    noticeVersion: text('notice_version'),
    recordedByUserId: text('recorded_by_user_id'),
    /** The inbound message (STOP, START, a button) that gave it, if any. */
    communicationId: uuid('communication_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    index('consent_records_contact_idx').on(
      t.hospitalId,
      t.channel,
      t.contactAddress,
      t.createdAt.desc(),
    ),
    check('consent_records_channel_check', sql`channel in ('whatsapp', 'sms', 'email')`),
    check('consent_records_action_check', sql`action in ('opt_in', 'opt_out')`),
    check(
      'consent_records_method_check',
      sql`method in ('keyword', 'button', 'staff', 'provider', 'form')`,
    ),
  ],
)

/** Settings → Notifications, per hospital (absent = the spec's defaults). */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    hospitalId: uuid('hospital_id').primaryKey(),
    emailEnabled: boolean('email_enabled').notNull().default(true),
    smsEnabled: boolean('sms_enabled').notNull().default(false),
    pushEnabled: boolean('push_enabled').notNull().default(true),
    appointmentReminders: boolean('appointment_reminders').notNull().default(true),
    /** Promotional messages wait for this window, in the hospital's time zone ('HH:mm'). */
    quietHoursStart: text('quiet_hours_start').notNull().default('10:00'),
    quietHoursEnd: text('quiet_hours_end').notNull().default('21:00'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    check(
      'notification_settings_quiet_check',
      sql`quiet_hours_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and quiet_hours_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`,
    ),
  ],
)

/**
 * A reminder waiting to be sent (Settings → Notifications' Pending Reminders). Lead follow-ups
 * due under the follow-up days are computed, not stored; appointment and other reminders are rows.
 */
export const reminders = pgTable(
  'reminders',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    type: text('type', { enum: reminderTypes }).notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: reminderStatuses }).notNull().default('pending'),
    channel: text('channel', { enum: messageChannels }).notNull(),
    leadId: uuid('lead_id'),
    patientId: uuid('patient_id'),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    /** The message that carried it, once sent. */
    communicationId: uuid('communication_id'),
    /** An appointment reminder's appointment and minutes before it (issue 26, drizzle/0017). */
    appointmentId: uuid('appointment_id'),
    offsetMinutes: integer('offset_minutes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({
      columns: [t.hospitalId, t.appointmentId],
      foreignColumns: [appointments.hospitalId, appointments.id],
    }).onDelete('cascade'),
    uniqueIndex('reminders_appointment_offset_idx')
      .on(t.hospitalId, t.appointmentId, t.offsetMinutes, t.channel)
      .where(sql`appointment_id is not null`),
    foreignKey({
      columns: [t.hospitalId, t.leadId],
      foreignColumns: [leads.hospitalId, leads.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.hospitalId, t.patientId],
      foreignColumns: [patients.hospitalId, patients.id],
    }).onDelete('cascade'),
    index('reminders_hospital_status_due_idx').on(t.hospitalId, t.status, t.dueAt),
    check('reminders_subject_check', sql`lead_id is not null or patient_id is not null`),
    check('reminders_type_check', sql`type in ('follow_up', 'appointment', 'payment', 'custom')`),
    check('reminders_status_check', sql`status in ('pending', 'sent', 'failed', 'cancelled')`),
    check('reminders_channel_check', sql`channel in ('whatsapp', 'sms', 'email')`),
  ],
)
