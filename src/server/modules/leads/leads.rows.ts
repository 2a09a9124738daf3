import { getTableColumns } from 'drizzle-orm'
import type { Communication, Lead } from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { communications, leads } from '../../db/schema/leads'
import type { TenantOptions } from '../patients/patients.service'
import { userNames } from './staff.service'

export type { TenantOptions }

/** The acting member without the database handle: for work inside an open transaction. */
export type Actor = Omit<TenantOptions, 'db'>

/** The lead's own columns, without the generated keys (search, follow-ups): what queries select. */
type SearchKey = 'nameSearch' | 'phoneDigits' | 'followUpFrom'
const searchKeys: readonly string[] = [
  'nameSearch',
  'phoneDigits',
  'followUpFrom',
] satisfies SearchKey[]
export const leadColumns = Object.fromEntries(
  Object.entries(getTableColumns(leads)).filter(([key]) => !searchKeys.includes(key)),
) as Omit<ReturnType<typeof getTableColumns<typeof leads>>, SearchKey>
export type LeadRow = Omit<typeof leads.$inferSelect, SearchKey>
export type CommunicationRow = typeof communications.$inferSelect

/** Field by field, as toPatient: spreading drizzle's row cost about 7 µs a lead. */
export function toLead(row: LeadRow, names: Map<string, string>): Lead {
  return {
    id: row.id,
    hospitalId: row.hospitalId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    status: row.status,
    source: row.source,
    priority: row.priority,
    serviceInterest: row.serviceInterest,
    campaign: row.campaign,
    notes: row.notes,
    metaLeadId: row.metaLeadId,
    metaFormId: row.metaFormId,
    assignedToUserId: row.assignedToUserId,
    patientId: row.patientId,
    assignedToName: row.assignedToUserId ? (names.get(row.assignedToUserId) ?? null) : null,
    lastContactAt: row.lastContactAt?.toISOString() ?? null,
    contactAttempts: row.contactAttempts,
    contactLimitExceeded: row.contactLimitExceeded,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** Leads as the API answers them, with the assignees' names (one platform query). */
export async function withNames(
  opts: Pick<TenantOptions, 'db' | 'hospitalId'>,
  rows: LeadRow[],
): Promise<Lead[]> {
  const names = await userNames(
    opts.db,
    opts.hospitalId,
    rows.map((r) => r.assignedToUserId),
  )
  return rows.map((r) => toLead(r, names))
}

export function toCommunication(row: CommunicationRow, names: Map<string, string>): Communication {
  return {
    id: row.id,
    leadId: row.leadId,
    patientId: row.patientId,
    type: row.type,
    direction: row.direction,
    content: row.content,
    status: row.status,
    metadata: row.metadata,
    createdByName: row.createdByUserId ? (names.get(row.createdByUserId) ?? null) : null,
    createdAt: row.createdAt.toISOString(),
    contactAddress: row.contactAddress,
    provider: row.provider,
    failureReason: row.failureReason,
    sandbox: row.sandbox,
    statusChangedAt: row.statusChangedAt?.toISOString() ?? null,
  }
}

/** Communication types that count as contact with the person (everything but system notes). */
export function isContact(type: CommunicationRow['type']): boolean {
  return type !== 'system'
}

/**
 * Adds a communication inside the caller's transaction. Only an inbound message that nobody
 * has seen yet counts on the bell: system notes and anything a staff member logs by hand are
 * stored as read (the messaging webhooks of the next issue store unread ones).
 */
export async function insertCommunication(
  tx: Tx,
  values: Omit<typeof communications.$inferInsert, 'readAt' | 'id' | 'createdAt'>,
): Promise<CommunicationRow> {
  const seen = values.type === 'system' || values.createdByUserId != null
  const [row] = await tx
    .insert(communications)
    .values({ ...values, readAt: seen ? new Date() : null })
    .returning()
  if (!row) throw new Error('communication was not saved')
  return row
}
