import { sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'

/**
 * Erasing a patient (DPDP, data-rights/patient-erase.service.ts): the activities that name them
 * or their leads keep their counts (what staff did) with the name replaced.
 */
export async function eraseActivityNames(
  tx: Tx,
  opts: { patientId: string; leadIds: readonly string[]; name: string },
): Promise<void> {
  const replaced = JSON.stringify({ patientName: opts.name })
  await tx.execute(sql`
    update activities set data = data || ${replaced}::jsonb
    where data ? 'patientName' and data->>'patientId' = ${opts.patientId}`)
  if (!opts.leadIds.length) return
  const lead = JSON.stringify({ leadName: opts.name })
  await tx.execute(sql`
    update activities set data = data || ${lead}::jsonb
    where data ? 'leadName' and data->>'leadId' in (${sql.join(
      opts.leadIds.map((id) => sql`${id}`),
      sql`, `,
    )})`)
}
