import { sql } from 'drizzle-orm'
import {
  date,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
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
    name: text('name').notNull(),
    email: text('email'),
    /** E.164, e.g. +919876543210. */
    phone: text('phone').notNull(),
    gender: text('gender', { enum: genders }),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
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
    index('patients_hospital_created_idx').on(t.hospitalId, t.createdAt),
  ],
)
