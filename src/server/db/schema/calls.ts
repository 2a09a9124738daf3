import { sql } from 'drizzle-orm'
import {
  bigint,
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
  callDirections,
  callDispositions,
  callOutcomes,
  callStatuses,
  voiceProviders,
} from '../../../shared/calls'
import { hospitals } from './hospitals'
import { leads } from './leads'
import { patients } from './patients'

/*
 * Voice calls (issue 41, drizzle/0047_calls.sql): tenant tables under forced RLS, keyed by
 * hospital first. The migration is hand-written; these definitions mirror it.
 */

/** One call: click-to-call now, incoming calls later. Its status only moves forward. */
export const calls = pgTable(
  'calls',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    leadId: uuid('lead_id'),
    patientId: uuid('patient_id'),
    /** The staff member whose phone rang first (users is a platform table: no foreign key). */
    userId: text('user_id').notNull(),
    direction: text('direction', { enum: callDirections }).notNull().default('outbound'),
    provider: text('provider', { enum: voiceProviders }).notNull(),
    providerCallId: text('provider_call_id'),
    /** The lead's or patient's number, E.164. */
    customerPhone: text('customer_phone').notNull(),
    status: text('status', { enum: callStatuses }).notNull().default('queued'),
    /** Why it failed, in a receptionist's words (never a provider's raw message). */
    failureReason: text('failure_reason'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    durationSeconds: integer('duration_seconds'),
    outcome: text('outcome', { enum: callOutcomes }),
    disposition: text('disposition', { enum: callDispositions }),
    dispositionNote: text('disposition_note'),
    /** "Call back at…": the follow-up's time (lead follow-ups are computed, not stored). */
    callBackAt: timestamp('call_back_at', { withTimezone: true }),
    /** The recording in the storage module (a later slice copies it there). */
    recordingKey: text('recording_key'),
    /** The stored recording's size (drizzle/0049): the disk quota's 'recordings' kind. */
    recordingBytes: bigint('recording_bytes', { mode: 'number' }),
    /** Why a recorded call has no recording (quota full, too large, none at the provider). */
    recordingNote: text('recording_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
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
    uniqueIndex('calls_hospital_provider_call_idx')
      .on(t.hospitalId, t.providerCallId)
      .where(sql`provider_call_id is not null`),
    index('calls_hospital_lead_idx').on(t.hospitalId, t.leadId, t.createdAt.desc()),
    index('calls_hospital_patient_idx').on(t.hospitalId, t.patientId, t.createdAt.desc()),
    index('calls_hospital_created_idx').on(t.hospitalId, t.createdAt.desc()),
    uniqueIndex('calls_hospital_user_live_idx')
      .on(t.hospitalId, t.userId)
      .where(sql`status in ('queued', 'ringing', 'in-progress') and direction = 'outbound'`),
    index('calls_hospital_call_back_idx')
      .on(t.hospitalId, t.callBackAt)
      .where(sql`call_back_at is not null`),
    check('calls_direction_check', sql`direction in ('outbound', 'inbound')`),
    check('calls_provider_check', sql`provider in ('sandbox', 'exotel', 'twilio')`),
    check(
      'calls_status_check',
      sql`status in ('queued', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled')`,
    ),
    check(
      'calls_outcome_check',
      sql`outcome in ('answered', 'no-answer', 'busy', 'failed', 'canceled')`,
    ),
    check(
      'calls_disposition_check',
      sql`disposition in ('interested', 'call_back', 'not_reachable', 'wrong_number', 'booked', 'not_interested')`,
    ),
    check(
      'calls_call_back_check',
      sql`(disposition IS NOT DISTINCT FROM 'call_back') = (call_back_at IS NOT NULL)`,
    ),
    check(
      'calls_customer_phone_check',
      sql`customer_phone = '' OR customer_phone ~ '^\\+[1-9][0-9]{6,14}$'`,
    ),
    check('calls_duration_check', sql`duration_seconds >= 0`),
    check(
      'calls_recording_bytes_check',
      sql`recording_bytes >= 0 AND (recording_bytes IS NULL) = (recording_key IS NULL)`,
    ),
    index('calls_hospital_recording_idx')
      .on(t.hospitalId, t.endedAt)
      .where(sql`recording_key IS NOT NULL`),
  ],
)

/**
 * The hospital's voice provider (no row: the sandbox with the defaults). Non-secret settings
 * (account SID) in `settings`; secrets only as encryptSecret() output in `secrets`, context
 * `voice:<hospital id>:<field>`. callback_token goes in the provider's callback URLs.
 */
export const voiceSettings = pgTable(
  'voice_settings',
  {
    hospitalId: uuid('hospital_id')
      .primaryKey()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: voiceProviders }).notNull().default('sandbox'),
    settings: jsonb('settings').$type<Record<string, string>>().notNull().default({}),
    secrets: jsonb('secrets').$type<Record<string, string>>().notNull().default({}),
    /** The number customers see: Exotel's ExoPhone or the Twilio voice number. */
    callerId: text('caller_id'),
    region: text('region', { enum: ['mumbai', 'singapore'] }),
    callingHoursStart: text('calling_hours_start').notNull().default('09:00'),
    callingHoursEnd: text('calling_hours_end').notNull().default('21:00'),
    recordingEnabled: boolean('recording_enabled').notNull().default(false),
    callbackToken: text('callback_token')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    /** Who an incoming call rings, in order (drizzle/0048; empty: calls-incoming/ring-group.ts). */
    ringGroup: text('ring_group')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  () => [
    check('voice_settings_provider_check', sql`provider in ('sandbox', 'exotel', 'twilio')`),
    check('voice_settings_region_check', sql`region in ('mumbai', 'singapore')`),
    check('voice_settings_caller_id_check', sql`caller_id ~ '^\\+?[0-9]{6,15}$'`),
    check(
      'voice_settings_hours_check',
      sql`calling_hours_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND calling_hours_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`,
    ),
    check('voice_settings_token_check', sql`length(callback_token) >= 32`),
    check('voice_settings_ring_group_check', sql`cardinality(ring_group) <= 20`),
  ],
)

/** The phone a staff member answers click-to-call on, verified by a placed test call. */
export const staffPhones = pgTable(
  'staff_phones',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    phone: text('phone').notNull(),
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.userId] }),
    check('staff_phones_phone_check', sql`phone ~ '^\\+[1-9][0-9]{6,14}$'`),
  ],
)

/**
 * An incoming call's pop-up (drizzle/0048_incoming_calls.sql): the staff whose screens it
 * popped up on (the ring group at the time) and whether it created its lead.
 */
export const incomingCalls = pgTable(
  'incoming_calls',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    callId: uuid('call_id').notNull(),
    ringUserIds: text('ring_user_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    newLead: boolean('new_lead').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.callId] }),
    foreignKey({
      columns: [t.hospitalId, t.callId],
      foreignColumns: [calls.hospitalId, calls.id],
    }).onDelete('cascade'),
    check('incoming_calls_ring_check', sql`cardinality(ring_user_ids) <= 50`),
  ],
)
