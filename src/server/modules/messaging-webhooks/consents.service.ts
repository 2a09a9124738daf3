import { and, desc, eq, inArray, or, type SQL } from 'drizzle-orm'
import type { MessageChannel } from '../../../shared/messaging'
import type {
  ConsentQuery,
  ConsentRecordView,
  RecordConsentInput,
} from '../../../shared/schemas/messaging-events'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { consentRecords } from '../../db/schema/messaging'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { userNames } from '../leads/staff.service'
import { recordConsent } from '../messaging/consent'
import type { TenantOptions } from '../patients/patients.service'

interface Contact {
  kind: 'lead' | 'patient'
  id: string
  name: string
  phone: string
  email: string | null
}

/** The lead or patient in the transaction's hospital (404 for another hospital's id). */
async function contactOf(tx: Tx, subject: ConsentQuery): Promise<Contact> {
  if (subject.leadId) {
    const [row] = await tx
      .select({ id: leads.id, name: leads.name, phone: leads.phone, email: leads.email })
      .from(leads)
      .where(eq(leads.id, subject.leadId))
    if (!row) throw notFound('Lead')
    return { kind: 'lead', ...row }
  }
  const [row] = await tx
    .select({ id: patients.id, name: patients.name, phone: patients.phone, email: patients.email })
    .from(patients)
    .where(eq(patients.id, subject.patientId ?? ''))
  if (!row) throw notFound('Patient')
  return { kind: 'patient', ...row }
}

/** The address a channel reaches: E.164 phone, or the lower-case email. */
function addressOf(contact: Contact, channel: MessageChannel): string | null {
  if (channel === 'email') return contact.email ? contact.email.trim().toLowerCase() : null
  return contact.phone
}

const labels: Record<MessageChannel, string> = { whatsapp: 'WhatsApp', sms: 'SMS', email: 'email' }

type Row = typeof consentRecords.$inferSelect

function view(row: Row, names: Map<string, string>): ConsentRecordView {
  return {
    id: row.id,
    channel: row.channel,
    contactAddress: row.contactAddress,
    purpose: row.purpose,
    action: row.action,
    method: row.method,
    noticeVersion: row.noticeVersion,
    recordedByName: row.recordedByUserId ? (names.get(row.recordedByUserId) ?? null) : null,
    createdAt: row.createdAt.toISOString(),
  }
}

/**
 * POST /api/consents: staff record a lead's or patient's opt-in or opt-out on a channel (DPDP:
 * a new record, never an overwrite; sends then follow the newest). Audited.
 */
export async function recordStaffConsent(
  opts: TenantOptions & { values: RecordConsentInput },
): Promise<ConsentRecordView> {
  const { values } = opts
  const row = await withTenant(opts.db, opts, async (tx) => {
    const contact = await contactOf(tx, values)
    const address = addressOf(contact, values.channel)
    if (!address) {
      throw new AppError('VALIDATION', `This ${contact.kind} has no email address.`, [
        { path: 'channel', message: `This ${contact.kind} has no email address.` },
      ])
    }
    const { id } = await recordConsent(tx, {
      hospitalId: opts.hospitalId,
      channel: values.channel,
      contactAddress: address,
      action: values.action,
      method: 'staff',
      noticeVersion: values.noticeVersion ?? null,
      recordedByUserId: opts.userId,
    })
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: values.action === 'opt_out' ? 'consent.opt_out' : 'consent.opt_in',
      entityType: contact.kind,
      entityId: contact.id,
      summary: `Recorded ${values.action === 'opt_out' ? 'an opt-out from' : 'an opt-in to'} ${labels[values.channel]} messages for ${contact.kind} ${contact.name}`,
    })
    const [stored] = await tx.select().from(consentRecords).where(eq(consentRecords.id, id))
    if (!stored) throw new Error('consent record missing')
    return stored
  })
  return view(row, await userNames(opts.db, opts.hospitalId, [row.recordedByUserId]))
}

/** GET /api/consents: the records of the person's phone and email, newest first. */
export async function listConsents(
  opts: TenantOptions & { query: ConsentQuery },
): Promise<ConsentRecordView[]> {
  const rows = await withTenant(opts.db, opts, async (tx) => {
    const contact = await contactOf(tx, opts.query)
    const email = addressOf(contact, 'email')
    const match: SQL[] = [
      and(
        inArray(consentRecords.channel, ['whatsapp', 'sms']),
        eq(consentRecords.contactAddress, contact.phone),
      ) as SQL,
    ]
    if (email) {
      match.push(
        and(eq(consentRecords.channel, 'email'), eq(consentRecords.contactAddress, email)) as SQL,
      )
    }
    return tx
      .select()
      .from(consentRecords)
      .where(or(...match))
      .orderBy(desc(consentRecords.createdAt), desc(consentRecords.id))
      .limit(500)
  })
  const names = await userNames(
    opts.db,
    opts.hospitalId,
    rows.map((r) => r.recordedByUserId),
  )
  return rows.map((r) => view(r, names))
}
