import { desc, eq, sql } from 'drizzle-orm'
import type { ApiIssue } from '../../../shared/api-error'
import {
  type Communication,
  type CommunicationDirection,
  type CommunicationStatus,
  type CommunicationType,
  isServerMetadataKey,
  SERVER_METADATA_MESSAGE,
  type StaffCommunicationType,
  SYSTEM_NOTE_MESSAGE,
} from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { communications, leads } from '../../db/schema/leads'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { markInboundRead } from '../messaging/mark-read'
import { insertCommunication, isContact, type TenantOptions, toCommunication } from './leads.rows'
import { findLead } from './leads.service'
import { userNames } from './staff.service'

/** The most communications the details dialog gets: the newest ones. */
export const COMMUNICATIONS_SHOWN = 500

/** Types that reach the person and so move a new lead on to contacted. */
const REACHES_OUT: readonly CommunicationType[] = ['call', 'phone', 'whatsapp', 'sms', 'email']

/** An outbound call or message: it moves a new lead on to contacted. */
export function reachesOut(type: CommunicationType, direction: CommunicationDirection): boolean {
  return direction === 'outbound' && REACHES_OUT.includes(type)
}

/**
 * After communications of `type` with `leadIds` (createCommunication, and the messaging send
 * path for one lead or a bulk send's thousands in one statement): the last contact moves to
 * this transaction's time (system notes are not contact) and an outbound call or message makes
 * a new lead contacted.
 */
export async function touchLeads(
  tx: Tx,
  leadIds: readonly string[],
  type: CommunicationType,
  direction: CommunicationDirection,
): Promise<void> {
  const contact = isContact(type)
  const contacts = reachesOut(type, direction)
  if (leadIds.length === 0 || !(contact || contacts)) return
  const ids = leadIds.length === 1 ? eq(leads.id, leadIds[0] ?? '') : inUuids(leadIds)
  await tx
    .update(leads)
    .set({
      ...(contact
        ? // now() is the transaction's start: the communication's created_at, to the microsecond.
          { lastContactAt: sql`greatest(${leads.lastContactAt}, now())` }
        : {}),
      ...(contacts
        ? {
            status: sql`case when ${leads.status} = 'new' then 'contacted' else ${leads.status} end`,
          }
        : {}),
      updatedAt: new Date(),
    })
    .where(ids)
}

/** `leads.id = any('{…}'::uuid[])`: one parameter however many ids (each checked to be a UUID). */
function inUuids(ids: readonly string[]) {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
  if (!ids.every((id) => UUID.test(id))) throw new Error('touchLeads: a lead id is not a UUID')
  return sql`${leads.id} = any(${`{${ids.join(',')}}`}::uuid[])`
}

/** GET /api/leads/:id/communications: newest first, with who recorded each. */
export async function listCommunications(
  opts: TenantOptions & { leadId: string },
): Promise<Communication[]> {
  const rows = await withTenant(opts.db, opts, async (tx) => {
    await findLead(tx, opts.leadId)
    return tx
      .select()
      .from(communications)
      .where(eq(communications.leadId, opts.leadId))
      .orderBy(desc(communications.createdAt), desc(communications.id))
      .limit(COMMUNICATIONS_SHOWN)
  })
  const names = await userNames(
    opts.db,
    opts.hospitalId,
    rows.map((r) => r.createdByUserId),
  )
  return rows.map((r) => toCommunication(r, names))
}

export interface NewCommunication {
  leadId: string
  type: CommunicationType
  direction: CommunicationDirection
  content: string
  status: CommunicationStatus
  metadata: Record<string, string | number | boolean>
}

/** What a person records: no system note, no metadata key the server relies on. */
export type StaffCommunication = NewCommunication & { type: StaffCommunicationType }

/**
 * System notes and the metadata keys that drive deduplication are written by the server only
 * (issue 24 item 8). The request schema refuses them already; this keeps any later caller of
 * createCommunication (messaging, an integration) from writing one on a person's behalf.
 */
function refuseServerWritten(input: NewCommunication): void {
  const issues: ApiIssue[] = []
  if (input.type === 'system') issues.push({ path: 'type', message: SYSTEM_NOTE_MESSAGE })
  for (const key of Object.keys(input.metadata)) {
    if (isServerMetadataKey(key)) {
      issues.push({ path: `metadata.${key}`, message: SERVER_METADATA_MESSAGE })
    }
  }
  const [first] = issues
  if (first)
    throw new AppError('VALIDATION', `Invalid input: ${first.path}: ${first.message}`, issues)
}

/**
 * POST /api/communications: a call note or an outbound record. In the same transaction the
 * lead's last contact moves to this communication's time (system notes are not contact), and
 * an outbound call or message on a new lead makes it contacted.
 */
export async function createCommunication(
  opts: TenantOptions & { values: StaffCommunication },
): Promise<Communication> {
  const input = opts.values
  refuseServerWritten(input)
  const row = await withTenant(opts.db, opts, async (tx) => {
    const lead = await findLead(tx, input.leadId, true)
    const row = await insertCommunication(tx, {
      ...input,
      hospitalId: opts.hospitalId,
      createdByUserId: opts.userId,
    })
    const contacted = lead.status === 'new' && reachesOut(input.type, input.direction)
    await touchLeads(tx, [lead.id], input.type, input.direction)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'communication.created',
      entityType: 'lead',
      entityId: lead.id,
      summary: `Recorded ${input.direction} ${input.type} for lead ${lead.name}${contacted ? ' (status new → contacted)' : ''}`,
    })
    return row
  })
  const names = await userNames(opts.db, opts.hospitalId, [row.createdByUserId])
  return toCommunication(row, names)
}

/** POST /api/leads/:id/read: the lead's unread inbound messages are seen (the bell). */
export async function markCommunicationsRead(
  opts: TenantOptions & { leadId: string },
): Promise<void> {
  await withTenant(opts.db, opts, async (tx) => {
    const lead = await findLead(tx, opts.leadId)
    await markInboundRead(tx, opts, { kind: 'lead', id: lead.id, name: lead.name })
  })
}
