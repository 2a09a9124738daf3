import { sql } from 'drizzle-orm'
import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { hospitals } from './hospitals'

/*
 * Erasure is durable (issue 39, drizzle/0036_erased_patients.sql): the hospital's erased
 * patients, ids only (no personal data). Written in the erase's transaction; every restore
 * re-applies the erasure to them (data-rights/patient-erase.service.ts applyErasure). No
 * foreign key to patients and no UPDATE or DELETE grant: the list outlives the patient rows,
 * Delete All Data included.
 */
export const erasedPatients = pgTable(
  'erased_patients',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id').notNull(),
    /** The leads anonymised with the patient (a backup may hold them not yet converted). */
    leadIds: uuid('lead_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    erasedAt: timestamp('erased_at', { withTimezone: true }).notNull().defaultNow(),
    erasedBy: text('erased_by'),
  },
  (t) => [primaryKey({ columns: [t.hospitalId, t.patientId] })],
)
