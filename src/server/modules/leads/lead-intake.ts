import { and, asc, eq, sql } from 'drizzle-orm'
import type { LeadPriority } from '../../../shared/schemas/leads'
import { leadManagementDefaults } from '../../../shared/schemas/settings'
import type { Tx } from '../../db/client'
import { user } from '../../db/schema/auth'
import { leads, leadSettings } from '../../db/schema/leads'
import { type PriorityInput, scoredPriority } from './lead-priority'

/**
 * How Settings → General → lead management shapes a new lead (issue 27), for every way a lead
 * arrives: New Lead, the CSV import, Meta lead ads (Sync and the webhook) and an inbound
 * message from an unknown number. All of it runs inside the caller's tenant transaction.
 */
export interface LeadPolicy {
  autoAssignLeads: boolean
  priorityScoring: boolean
}

/** The hospital's lead-management switches (no lead_settings row: the spec's defaults). */
export async function readLeadPolicy(tx: Tx): Promise<LeadPolicy> {
  const [row] = await tx
    .select({
      autoAssignLeads: leadSettings.autoAssignLeads,
      priorityScoring: leadSettings.priorityScoring,
    })
    .from(leadSettings)
  return (
    row ?? {
      autoAssignLeads: leadManagementDefaults.autoAssignLeads,
      priorityScoring: leadManagementDefaults.priorityScoring,
    }
  )
}

/**
 * A new lead's priority: the one a person gave (New Lead's select, a CSV priority column);
 * else, with priority scoring on, the score of its source, service interest and recency;
 * else medium.
 */
export function newLeadPriority(
  policy: LeadPolicy,
  given: LeadPriority | null,
  lead: Omit<PriorityInput, 'now'>,
  now = new Date(),
): LeadPriority {
  if (given) return given
  return policy.priorityScoring ? scoredPriority({ ...lead, now }) : 'medium'
}

/** The hospital's active receptionists by id: round-robin's stable order. */
async function receptionists(tx: Tx, hospitalId: string): Promise<string[]> {
  // users is a platform table: read as the connecting role, then back to app_user.
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const rows = await tx
    .select({ id: user.id })
    .from(user)
    .where(
      and(
        eq(user.hospitalId, hospitalId),
        eq(user.role, 'receptionist'),
        eq(user.isActive, true),
        eq(user.banned, false),
        eq(user.isSuperAdmin, false),
      ),
    )
    .orderBy(asc(user.id))
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${hospitalId}, true)`,
  )
  return rows.map((r) => r.id)
}

/** The receptionists after the cursor, wrapping round, one per lead. */
export function roundRobin(ids: readonly string[], cursor: string | null, count: number): string[] {
  if (!ids.length) return []
  const start = cursor === null ? 0 : ids.findIndex((id) => id > cursor)
  const first = start < 0 ? 0 : start
  return Array.from({ length: count }, (_, i) => ids[(first + i) % ids.length] as string)
}

/**
 * Auto-assign: hands the new leads (ids in arrival order, none assigned yet) to the hospital's
 * active receptionists round-robin, when the setting is on. The settings row is locked for
 * the rest of the transaction, so concurrent creates take turns on the cursor and no two get
 * the same place in the rotation. Answers each lead's assignee (empty: nothing assigned).
 */
export async function autoAssign(
  tx: Tx,
  hospitalId: string,
  leadIds: readonly string[],
): Promise<Map<string, string>> {
  const assigned = new Map<string, string>()
  if (!leadIds.length) return assigned
  const [settings] = await tx
    .select({ on: leadSettings.autoAssignLeads, cursor: leadSettings.lastAssignedUserId })
    .from(leadSettings)
    .for('update')
  if (!settings?.on) return assigned
  const picks = roundRobin(await receptionists(tx, hospitalId), settings.cursor, leadIds.length)
  if (!picks.length) return assigned
  leadIds.forEach((id, i) => assigned.set(id, picks[i] as string))
  const pairs = JSON.stringify([...assigned].map(([id, userId]) => ({ id, user_id: userId })))
  await tx.execute(sql`
    update ${leads} l set assigned_to_user_id = a.user_id
    from jsonb_to_recordset(${pairs}::jsonb) as a(id uuid, user_id text)
    where l.id = a.id and l.assigned_to_user_id is null`)
  await tx
    .update(leadSettings)
    .set({ lastAssignedUserId: picks[picks.length - 1] })
    .where(eq(leadSettings.hospitalId, hospitalId))
  return assigned
}
