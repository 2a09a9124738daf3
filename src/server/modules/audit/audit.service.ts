import type { Tx } from '../../db/client'
import { auditEvents } from '../../db/schema/audit'

export interface AuditEntry {
  hospitalId: string
  /** The user whose session acted. */
  actorUserId: string | null
  /** The real person behind an impersonated session (null when not impersonating). */
  impersonatorUserId?: string | null | undefined
  action: string
  entityType: string
  entityId: string | null
  summary: string
}

/** Writes the audit row inside the caller's tenant transaction, so it commits with the change. */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx
    .insert(auditEvents)
    .values({ ...entry, impersonatorUserId: entry.impersonatorUserId ?? null })
}
