import { sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { MESSAGING_CHANNEL } from '../messaging/notify'

/**
 * "A support grant ended" (issue 39): sent inside the revoking transaction on the channel the
 * messaging hub already hears on every instance (PostgreSQL delivers it at COMMIT only), so the
 * event streams opened under that grant end at once everywhere. Expiry needs no notice: each
 * stream ends at its grant's expiry and re-checks the grant at every heartbeat.
 */
export interface SupportEnded {
  kind: 'support-ended'
  hospitalId: string
  grantId: string
}

export async function notifySupportEnded(tx: Tx, ended: Omit<SupportEnded, 'kind'>): Promise<void> {
  const body: SupportEnded = {
    kind: 'support-ended',
    hospitalId: ended.hospitalId,
    grantId: ended.grantId,
  }
  await tx.execute(sql`select pg_notify(${MESSAGING_CHANNEL}, ${JSON.stringify(body)})`)
}

/** The notice in a parsed payload, or null when it is something else. */
export function supportEndedNotice(json: unknown): SupportEnded | null {
  const n = json as Partial<SupportEnded> | null
  if (n?.kind !== 'support-ended') return null
  if (typeof n.hospitalId !== 'string' || typeof n.grantId !== 'string') return null
  return { kind: 'support-ended', hospitalId: n.hospitalId, grantId: n.grantId }
}
