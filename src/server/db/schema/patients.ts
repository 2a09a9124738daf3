import { getTableColumns, sql } from 'drizzle-orm'
import {
  boolean,
  check,
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

/** The name in lower case with single spaces: what a search is matched against. */
const searchableName = sql`lower(regexp_replace(btrim(name), '\\s+', ' ', 'g'))`
/** The searchable name from its second, third or fourth word on (null with fewer words). */
const nameFromWord = {
  2: sql`substring(${searchableName} from '^\\S+ (.*)$')`,
  3: sql`substring(${searchableName} from '^\\S+ \\S+ (.*)$')`,
  4: sql`substring(${searchableName} from '^\\S+ \\S+ \\S+ (.*)$')`,
}

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
    /** Set when the patient was erased (DPDP data rights, drizzle/0021): fields cleared. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    erasedBy: text('erased_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // Search keys (docs/decisions/011), computed by PostgreSQL and never written by the app.
    // A search is a prefix of the name from any of its first four words, of the email, of
    // the number or its digits, or of the phone's digits: each a b-tree range under RLS.
    nameSearch: text('name_search').generatedAlwaysAs(searchableName),
    nameSearch2: text('name_search_2').generatedAlwaysAs(nameFromWord[2]),
    nameSearch3: text('name_search_3').generatedAlwaysAs(nameFromWord[3]),
    nameSearch4: text('name_search_4').generatedAlwaysAs(nameFromWord[4]),
    /** The phone's digits, country code first: '919876543210'. */
    phoneDigits: text('phone_digits').generatedAlwaysAs(sql`regexp_replace(phone, '\\D', '', 'g')`),
    /** The number's digits: '000123' of 'SMH-000123'. */
    numberDigits: text('number_digits').generatedAlwaysAs(
      sql`substring(patient_number from '(\\d+)$')`,
    ),
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
    // Exact phone matches (the duplicate guard).
    index('patients_hospital_phone_idx').on(t.hospitalId, t.phone),
    // Prefix search: text_pattern_ops compares bytes, so `^@` (starts_with, LEAKPROOF) becomes
    // an index range under RLS whatever the database's collation.
    ...(
      [
        ['name_search', t.nameSearch],
        ['name_search_2', t.nameSearch2],
        ['name_search_3', t.nameSearch3],
        ['name_search_4', t.nameSearch4],
        ['email', t.email],
        ['patient_number', t.patientNumber],
        ['number_digits', t.numberDigits],
        ['phone_digits', t.phoneDigits],
      ] as const
    ).map(([name, column]) =>
      index(`patients_hospital_${name}_prefix_idx`).on(t.hospitalId, column.op('text_pattern_ops')),
    ),
    // Any run of 3+ digits anywhere in the phone (issue 26, drizzle/0018): trigrams inside the
    // hospital's range (btree_gin), written at once (no pending list for searches to scan).
    index('patients_hospital_phone_digits_trgm_idx')
      .using('gin', t.hospitalId, t.phoneDigits.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
    // genders (shared/schemas/patients.ts) and the ABHA number as the API stores it,
    // 12-3456-7890-1234 (migration 0015; constraints.api.test.ts).
    check('patients_gender_check', sql`gender in ('male', 'female', 'other', 'prefer_not_to_say')`),
    check('patients_abha_number_check', sql`abha_number ~ '^[0-9]{2}-[0-9]{4}-[0-9]{4}-[0-9]{4}$'`),
  ],
)

const searchKeys = [
  'nameSearch',
  'nameSearch2',
  'nameSearch3',
  'nameSearch4',
  'phoneDigits',
  'numberDigits',
] as const
/** A generated search key column (docs/decisions/011). */
export type SearchKey = (typeof searchKeys)[number]
type PatientColumns = ReturnType<typeof getTableColumns<typeof patients>>

/** The patient's own columns, without the generated search keys: what queries select. */
export const patientColumns = Object.fromEntries(
  Object.entries(getTableColumns(patients)).filter(
    ([key]) => !(searchKeys as readonly string[]).includes(key),
  ),
) as Omit<PatientColumns, SearchKey>

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
