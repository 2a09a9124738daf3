import { sql } from 'drizzle-orm'
import {
  boolean,
  date,
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
import { genders } from '../../../shared/schemas/patients'
import { hospitals } from './hospitals'

/** A tenant table: (hospital_id, id) is the key; RLS is forced (see drizzle/0001_tenancy.sql). */
export const patients = pgTable(
  'patients',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    /**
     * Per-hospital sequential number (UHID/MRN), 'SMH-000123'. Set by the BEFORE INSERT trigger
     * assign_patient_number (drizzle/0005_patient_numbers.sql) from patient_number_counters;
     * inserts send NULL (hence optional here) and the trigger numbers the row.
     */
    patientNumber: text('patient_number')
      .notNull()
      .$defaultFn(() => sql`null`),
    name: text('name').notNull(),
    email: text('email'),
    /** E.164, e.g. +919876543210. */
    phone: text('phone').notNull(),
    gender: text('gender', { enum: genders }),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    /** The date of birth was estimated from an age in years. */
    dateOfBirthEstimated: boolean('date_of_birth_estimated').notNull().default(false),
    address: text('address'),
    emergencyContact: text('emergency_contact'),
    insuranceProvider: text('insurance_provider'),
    insuranceNumber: text('insurance_number'),
    medicalHistory: text('medical_history'),
    allergies: text('allergies'),
    abhaNumber: text('abha_number'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }),
    index('patients_hospital_name_idx').on(t.hospitalId, t.name, t.id),
    // Newest first (the list's default order) and its cursor.
    index('patients_hospital_recent_idx').on(
      t.hospitalId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    uniqueIndex('patients_hospital_number_idx').on(t.hospitalId, t.patientNumber),
    // Exact phone matches (the duplicate guard); substring search uses the trigram index.
    index('patients_hospital_phone_idx').on(t.hospitalId, t.phone),
  ],
)

/**
 * A tenant table: the next patient number of each hospital and its prefix. The trigger on
 * patients takes the row lock, so concurrent adds in one hospital get consecutive numbers and a
 * rolled-back add gives its number back. RLS is forced (drizzle/0005_patient_numbers.sql).
 */
export const patientNumberCounters = pgTable(
  'patient_number_counters',
  {
    hospitalId: uuid('hospital_id').notNull().primaryKey(),
    prefix: text('prefix').notNull(),
    nextValue: integer('next_value').notNull(),
  },
  (t) => [foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] })],
)
