import type { Tx } from '../../db/client'
import { auditEvents } from '../../db/schema/audit'

export interface AuditEntry {
  hospitalId: string
  actorUserId: string | null
  action: string
  entityType: string
  entityId: string | null
  summary: string
}

/** Writes the audit row inside the caller's tenant transaction, so it commits with the change. */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.insert(auditEvents).values(entry)
}
