import { desc, eq } from 'drizzle-orm'
import type { VoiceProviderKind } from '../../../shared/calls'
import { formatPhone, normalizePhone } from '../../../shared/phone'
import type { AppDb, Tx } from '../../db/client'
import { calls, incomingCalls, voiceSettings } from '../../db/schema/calls'
import { leads } from '../../db/schema/leads'
import { patients } from '../../db/schema/patients'
import { recordAudit } from '../audit/audit.service'
import { notifyCall } from '../calls/call-notice'
import type { CallRow } from '../calls/call-progress'
import { autoAssign, newLeadPriority, readLeadPolicy } from '../leads/lead-intake'
import { listStaff } from '../leads/staff.service'
import { notifyIncoming } from './incoming-notice'
import { type ResolvedRing, resolveRingGroup, verifiedPhones } from './ring-group'

/**
 * An incoming call (issue 41), the one path of the providers' webhooks and the sandbox: in the
 * hospital's tenant transaction, the caller's number (normalised as leads' dedup does,
 * shared/phone.ts) finds its lead (one per number) or else its newest patient; an unknown
 * number becomes a lead with source 'phone' (the lead-intake rules every arrival path uses:
 * priority scoring and auto-assign; one lead per number also under concurrency). The call is
 * logged inbound and ringing, with the ring group it popped up for, and announced (`call` and
 * `incoming_call`). A second delivery of the same provider call id changes nothing. Its end
 * comes later, through applyCallChange (a missed call ends no-answer).
 */

export interface IncomingInput {
  hospitalId: string
  provider: VoiceProviderKind
  providerCallId: string
  /** The caller as the provider wrote it ('09876543210', '+919876543210'). */
  from: string
  at?: Date | undefined
}

export type IncomingResult =
  | { logged: true; created: boolean; row: CallRow; ring: ResolvedRing }
  /** A number that is not one (withheld, or not a phone number): rung, not logged. */
  | { logged: false; ring: ResolvedRing }

/** The caller's number, E.164 (Indian numbers without their code too); null if not a number. */
export function callerPhone(from: string): string | null {
  const raw = from.trim()
  if (!raw || raw.length > 32) return null
  return normalizePhone(raw) ?? normalizePhone(raw.startsWith('+') ? raw : `+${raw}`)
}

async function callBySid(tx: Tx, providerCallId: string) {
  const [row] = await tx.select().from(calls).where(eq(calls.providerCallId, providerCallId))
  return row
}

interface Person {
  leadId: string | null
  patientId: string | null
  newLead: boolean
}

async function personOf(tx: Tx, hospitalId: string, phone: string, at: Date): Promise<Person> {
  const known = async (): Promise<Person | null> => {
    const [lead] = await tx
      .select({ id: leads.id, patientId: leads.patientId })
      .from(leads)
      .where(eq(leads.phone, phone))
      .orderBy(desc(leads.createdAt))
      .limit(1)
    if (lead) return { leadId: lead.id, patientId: lead.patientId, newLead: false }
    const [patient] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(eq(patients.phone, phone))
      .orderBy(desc(patients.createdAt))
      .limit(1)
    return patient ? { leadId: null, patientId: patient.id, newLead: false } : null
  }
  const found = await known()
  if (found) return found
  const policy = await readLeadPolicy(tx)
  const [created] = await tx
    .insert(leads)
    .values({
      hospitalId,
      name: formatPhone(phone),
      phone,
      source: 'phone',
      priority: newLeadPriority(policy, null, {
        source: 'phone',
        serviceInterest: null,
        enquiredAt: null,
      }),
      notes: 'First contact: a call to the hospital’s number.',
      // The lead arrived when the call rang (the provider's time).
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing({ target: [leads.hospitalId, leads.phone] })
    .returning({ id: leads.id, name: leads.name })
  if (!created) {
    // A concurrent call (or message) from the same number created it first.
    const other = await known()
    if (!other) throw new Error('incoming call: lead vanished')
    return other
  }
  if (policy.autoAssignLeads) await autoAssign(tx, hospitalId, [created.id])
  await recordAudit(tx, {
    hospitalId,
    actorUserId: null,
    action: 'lead.created',
    entityType: 'lead',
    entityId: created.id,
    summary: `Added lead ${created.name} from a call by an unknown number`,
  })
  return { leadId: created.id, patientId: null, newLead: true }
}

/** Reads who rings (staff first, outside the tenant transaction: users is a platform table). */
export async function staffOf(db: AppDb, hospitalId: string) {
  return listStaff({ db, hospitalId })
}

/** Logs the incoming call in the caller's tenant transaction (see the module comment). */
export async function receiveIncoming(
  tx: Tx,
  input: IncomingInput,
  staff: Awaited<ReturnType<typeof staffOf>>,
): Promise<IncomingResult> {
  const [settings] = await tx.select({ ringGroup: voiceSettings.ringGroup }).from(voiceSettings)
  const ring = resolveRingGroup(staff, settings?.ringGroup ?? [], await verifiedPhones(tx))
  const existing = await callBySid(tx, input.providerCallId)
  if (existing) return { logged: true, created: false, row: existing, ring }
  const phone = callerPhone(input.from)
  if (!phone) return { logged: false, ring }
  const at = input.at ?? new Date()
  const person = await personOf(tx, input.hospitalId, phone, at)
  const ringUserIds = ring.members.map((m) => m.userId)
  const [row] = await tx
    .insert(calls)
    .values({
      hospitalId: input.hospitalId,
      leadId: person.leadId,
      patientId: person.patientId,
      // The first staff member it rings (reports attribute the call to them until answered).
      userId: ringUserIds[0] ?? 'system',
      direction: 'inbound',
      provider: input.provider,
      providerCallId: input.providerCallId,
      customerPhone: phone,
      status: 'ringing',
      startedAt: at,
      createdAt: at,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) {
    // The provider delivered the same call twice at once: the other delivery logged it.
    const other = await callBySid(tx, input.providerCallId)
    if (!other) throw new Error('incoming call: call vanished')
    return { logged: true, created: false, row: other, ring }
  }
  await tx.insert(incomingCalls).values({
    hospitalId: input.hospitalId,
    callId: row.id,
    ringUserIds,
    newLead: person.newLead,
  })
  await notifyCall(tx, row)
  await notifyIncoming(tx, input.hospitalId, {
    id: row.id,
    ringUserIds,
    leadId: row.leadId,
    patientId: row.patientId,
    status: row.status,
  })
  return { logged: true, created: true, row, ring }
}
