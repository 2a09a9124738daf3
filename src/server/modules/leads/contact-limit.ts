import { sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { leads, leadSettings } from '../../db/schema/leads'

/**
 * Re-marks which leads went beyond the max contact attempts after the maximum changed (inside
 * the tenant transaction that saved it). A trigger (drizzle/0025) keeps each lead's count and
 * flag as communications are added; only leads whose flag changes are written.
 */
export async function refreshContactLimitFlags(tx: Tx): Promise<void> {
  const over = sql`${leads.contactAttempts} > coalesce((select ${leadSettings.maxContactAttempts} from ${leadSettings}), 5)`
  await tx
    .update(leads)
    .set({ contactLimitExceeded: over })
    .where(sql`${leads.contactLimitExceeded} is distinct from (${over})`)
}
