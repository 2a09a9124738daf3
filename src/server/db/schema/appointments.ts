import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import {
  appointmentSources,
  appointmentStatuses,
  bookingCodeChannels,
} from '../../../shared/scheduling'
import { hospitals } from './hospitals'
import { leads } from './leads'
import { patients } from './patients'

/*
 * Appointments, the service catalogue and online booking (issue 26,
 * docs/decisions/026-appointments-billing.md, drizzle/0017_appointments_billing.sql). Tenant
 * tables: hospital_id first in every key, RLS forced, app_user only.
 */

/** What a clinic offers: pre-fills invoice lines, names appointments, lists what can be booked. */
export const services = pgTable(
  'services',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    /** SAC or HSN code. */
    code: text('code'),
    /** Paise. */
    defaultPrice: bigint('default_price', { mode: 'number' }).notNull().default(0),
    gstRate: integer('gst_rate').notNull().default(0),
    durationMinutes: integer('duration_minutes').notNull().default(30),
    /** Offered on the public booking page. */
    bookable: boolean('bookable').notNull().default(true),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    uniqueIndex('services_hospital_name_idx').on(t.hospitalId, sql`lower(${t.name})`),
    check('services_name_check', sql`length(btrim(name)) between 1 and 120`),
    check('services_price_check', sql`default_price between 0 and 1000000000`),
    check('services_gst_rate_check', sql`gst_rate in (0, 5, 12, 18)`),
    check('services_duration_check', sql`duration_minutes in (15, 30, 45, 60)`),
  ],
)

/**
 * An appointment: [startsAt, endsAt) of one doctor. The exclusion constraint
 * appointments_no_overlap (in the migration; drizzle cannot express it) keeps a doctor from two
 * overlapping scheduled or confirmed appointments under concurrent requests.
 */
export const appointments = pgTable(
  'appointments',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    patientId: uuid('patient_id').notNull(),
    /** A member with the doctor role (users is a platform table: checked by the service). */
    doctorId: uuid('doctor_id').notNull(),
    serviceId: uuid('service_id'),
    serviceType: text('service_type').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    status: text('status', { enum: appointmentStatuses }).notNull().default('scheduled'),
    source: text('source', { enum: appointmentSources }).notNull().default('staff'),
    /** The lead it was booked from, if any. */
    leadId: uuid('lead_id'),
    notes: text('notes'),
    cancelReason: text('cancel_reason'),
    createdBy: uuid('created_by'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({
      columns: [t.hospitalId, t.patientId],
      foreignColumns: [patients.hospitalId, patients.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.hospitalId, t.serviceId],
      foreignColumns: [services.hospitalId, services.id],
    }),
    // ON DELETE SET NULL (lead_id) in the migration.
    foreignKey({ columns: [t.hospitalId, t.leadId], foreignColumns: [leads.hospitalId, leads.id] }),
    index('appointments_hospital_starts_idx').on(t.hospitalId, t.startsAt),
    index('appointments_hospital_doctor_starts_idx').on(t.hospitalId, t.doctorId, t.startsAt),
    index('appointments_hospital_patient_starts_idx').on(t.hospitalId, t.patientId, t.startsAt),
    check(
      'appointments_status_check',
      sql`status in ('scheduled', 'confirmed', 'completed', 'cancelled', 'no-show')`,
    ),
    check('appointments_source_check', sql`source in ('staff', 'online')`),
    check('appointments_duration_check', sql`duration_minutes in (15, 30, 45, 60)`),
    check(
      'appointments_ends_check',
      sql`ends_at = starts_at + make_interval(mins => duration_minutes)`,
    ),
    check('appointments_service_type_check', sql`length(btrim(service_type)) between 1 and 120`),
  ],
)

/** The public booking page: on or off, and its doctors (none listed: every doctor). */
export const bookingSettings = pgTable(
  'booking_settings',
  {
    hospitalId: uuid('hospital_id').primaryKey(),
    enabled: boolean('enabled').notNull().default(false),
    doctorIds: uuid('doctor_ids')
      .array()
      .notNull()
      .default(sql`'{}'`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
  ],
)

/**
 * A slot held for a booking page visitor while they confirm the code sent to their mobile
 * (BOOKING_HOLD_MINUTES). The code only as a hash; attempts up to BOOKING_CODE_TRIES.
 */
export const bookingHolds = pgTable(
  'booking_holds',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    doctorId: uuid('doctor_id').notNull(),
    serviceId: uuid('service_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    name: text('name').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    channel: text('channel', { enum: bookingCodeChannels }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    appointmentId: uuid('appointment_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({
      columns: [t.hospitalId, t.serviceId],
      foreignColumns: [services.hospitalId, services.id],
    }).onDelete('cascade'),
    // ON DELETE SET NULL (appointment_id) in the migration.
    foreignKey({
      columns: [t.hospitalId, t.appointmentId],
      foreignColumns: [appointments.hospitalId, appointments.id],
    }),
    index('booking_holds_hospital_doctor_starts_idx').on(t.hospitalId, t.doctorId, t.startsAt),
    check('booking_holds_channel_check', sql`channel in ('whatsapp', 'sms')`),
    check('booking_holds_attempts_check', sql`attempts between 0 and 5`),
    check('booking_holds_range_check', sql`ends_at > starts_at`),
  ],
)
