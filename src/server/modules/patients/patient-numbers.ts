import { patientNumberPrefix } from '../../../shared/schemas/patients'
import type { AppDb } from '../../db/client'
import { patientNumberCounters } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'

/**
 * Gives a new hospital its patient-number counter, with the prefix derived from its name
 * ('Sanjeevani Multispeciality Hospital, Pune' numbers patients SMH-000001, SMH-000002...).
 * Idempotent. The trigger on patients allocates the numbers (drizzle/0005_patient_numbers.sql).
 */
export async function createPatientNumberCounter(opts: {
  db: AppDb
  hospitalId: string
  hospitalName: string
}): Promise<void> {
  await withTenant(opts.db, { hospitalId: opts.hospitalId, userId: null }, (tx) =>
    tx
      .insert(patientNumberCounters)
      .values({
        hospitalId: opts.hospitalId,
        prefix: patientNumberPrefix(opts.hospitalName),
        nextValue: 1,
      })
      .onConflictDoNothing(),
  )
}
