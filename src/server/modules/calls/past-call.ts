import type { CallDisposition } from '../../../shared/calls'
import type { Tx } from '../../db/client'
import { calls } from '../../db/schema/calls'
import { recordActivity } from '../live-monitoring/activity'
import { callContact } from './call-contact'
import { applyCallChange, callActivityData, type CallRow } from './call-progress'
import { applyDisposition } from './disposition.service'

/**
 * A call that already happened, written the way a live one is (issue 41): the call row, its
 * call_start activity, its ending through applyCallChange (the Communication on the contact,
 * call_end, the lead's last contact) and its disposition through applyDisposition. The demo
 * seed uses it so the history, Live Monitoring and the reports read what real calls write.
 * In the caller's tenant transaction; sandbox calls only (nothing is dialled).
 */
export interface PastCall {
  hospitalId: string
  userId: string
  contact: { leadId: string } | { patientId: string }
  direction?: 'outbound' | 'inbound'
  startedAt: Date
  /** Ringing time before the answer (or before it rang out). */
  ringSeconds: number
  outcome: 'answered' | 'no-answer' | 'busy'
  /** The conversation, when answered. */
  talkSeconds?: number
  disposition?: {
    disposition: CallDisposition
    note?: string | null
    callBackAt?: Date | null
  }
}

export async function logPastCall(tx: Tx, p: PastCall): Promise<CallRow | null> {
  const contact = await callContact(tx, p.contact)
  const answered = p.outcome === 'answered'
  const [row] = await tx
    .insert(calls)
    .values({
      hospitalId: p.hospitalId,
      leadId: contact.leadId,
      patientId: contact.patientId,
      userId: p.userId,
      direction: p.direction ?? 'outbound',
      provider: 'sandbox',
      providerCallId: `sandbox-${crypto.randomUUID()}`,
      customerPhone: contact.phone,
      status: 'ringing',
      startedAt: p.startedAt,
      createdAt: p.startedAt,
      updatedAt: p.startedAt,
    })
    .returning()
  if (!row) return null
  await recordActivity(tx, {
    hospitalId: p.hospitalId,
    userId: p.userId,
    type: 'call_start',
    data: await callActivityData(tx, row),
    at: p.startedAt,
    dedupeKey: `call_start:${row.id}`,
  })
  const ring = p.ringSeconds * 1000
  const talk = answered ? Math.max(1, Math.round(p.talkSeconds ?? 60)) : 0
  if (answered) {
    await applyCallChange(tx, row.id, {
      status: 'in-progress',
      at: new Date(p.startedAt.getTime() + ring),
    })
  }
  const ended = await applyCallChange(tx, row.id, {
    status: p.outcome === 'answered' ? 'completed' : p.outcome,
    at: new Date(p.startedAt.getTime() + ring + talk * 1000),
    durationSeconds: talk,
  })
  if (!ended || !p.disposition) return ended
  return applyDisposition(tx, ended, {
    disposition: p.disposition.disposition,
    note: p.disposition.note ?? null,
    callBackAt: p.disposition.callBackAt ?? null,
  })
}
