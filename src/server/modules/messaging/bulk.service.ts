import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { fillTemplate, matchesDltTemplate } from '../../../shared/message-text'
import {
  type BulkMessageInput,
  type BulkPreview,
  type BulkSendResult,
  EMPTY_MESSAGE,
  type SkippedCounts,
} from '../../../shared/schemas/messaging-send'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { messageBatches } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { touchLeads } from '../leads/communications.service'
import type { TenantOptions } from '../patients/patients.service'
import { optedOut } from './consent'
import { heldByQuietHours, nextOpening } from './quiet-hours'
import {
  addressFor,
  channelLabels,
  DLT_MISMATCH,
  dltPattern,
  findTemplate,
  type HospitalProfile,
  hospitalProfile,
  hospitalSending,
  type HospitalSending,
  lastInboundWhatsapp,
  opensConversation,
  type TemplateRow,
} from './rules'
import { fillValues, SEND_ATTEMPTS, SEND_JOB, templateLabel } from './send.service'

/**
 * Bulk send (POST /api/leads/bulk/message and its preview): the same rules as a single send,
 * applied to up to 10,000 leads in a handful of set-based statements; one transaction writes
 * the batch, every queued communication and its send job (multi-row inserts).
 */
type Values = Omit<BulkMessageInput, 'leadIds'> & { leadIds: string[] }

interface Recipient {
  id: string
  lead_id: string
  patient_id: string | null
  content: string
  address: string
  subject: string | null
}

interface Plan {
  total: number
  recipients: Recipient[]
  skipped: SkippedCounts
  template: TemplateRow | null
  sending: HospitalSending
}

const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`

async function plan(tx: Tx, hospital: HospitalProfile, values: Values): Promise<Plan> {
  const channel = values.type
  const ids = [...new Set(values.leadIds)]
  const rows = await tx
    .select({
      id: leads.id,
      name: leads.name,
      phone: leads.phone,
      email: leads.email,
      patientId: leads.patientId,
    })
    .from(leads)
    .where(sql`${leads.id} = any(${uuidArray(ids)}::uuid[])`)
  if (rows.length < ids.length) throw notFound('Lead')
  const template = values.templateId ? await findTemplate(tx, values.templateId, channel) : null
  const sending = await hospitalSending(tx, hospital)
  const body = values.content?.trim() || template?.body || ''
  // A template whose body is only blanks is an empty message too (as for a single send).
  if (!body.trim()) {
    throw new AppError('VALIDATION', EMPTY_MESSAGE, [{ path: 'content', message: EMPTY_MESSAGE }])
  }
  const dlt = channel === 'sms' && sending.providers.sms === 'msg91' && template?.dltTemplateId
  if (dlt && !matchesDltTemplate(dltPattern(template.body), fillTemplate(body, sample))) {
    throw new AppError('VALIDATION', DLT_MISMATCH, [{ path: 'content', message: DLT_MISMATCH }])
  }
  const subject =
    channel === 'email'
      ? values.subject?.trim() || template?.subject || `Message from ${sending.hospitalName}`
      : null
  const skipped: SkippedCounts = {
    opted_out: 0,
    no_email: 0,
    no_phone: 0,
    invalid_number: 0,
    outside_window: 0,
  }
  let candidates: Recipient[] = []
  for (const lead of rows) {
    const target = addressFor(channel, lead)
    if ('skip' in target) {
      skipped[target.skip] += 1
      continue
    }
    const fill = fillValues(lead.name, sending.hospitalName)
    candidates.push({
      id: randomUUID(),
      lead_id: lead.id,
      patient_id: lead.patientId,
      content: fillTemplate(body, fill),
      address: target.address,
      subject: subject ? fillTemplate(subject, fill) : null,
    })
  }
  const out = await optedOut(
    tx,
    channel,
    candidates.map((c) => c.address),
  )
  skipped.opted_out = candidates.filter((c) => out.has(c.address)).length
  candidates = candidates.filter((c) => !out.has(c.address))
  if (channel === 'whatsapp' && !opensConversation(template, sending.providers.whatsapp)) {
    const open = await lastInboundWhatsapp(
      tx,
      candidates.map((c) => c.address),
    )
    skipped.outside_window = candidates.filter((c) => !open.has(c.address)).length
    candidates = candidates.filter((c) => open.has(c.address))
  }
  return { total: ids.length, recipients: candidates, skipped, template, sending }
}

/** Placeholder values for checking a text against its DLT template before filling it. */
const sample = { name: 'x', clinic: 'x', hospital: 'x' }

export async function previewBulk(opts: TenantOptions & { values: Values }): Promise<BulkPreview> {
  const hospital = await hospitalProfile(opts.db, opts.hospitalId)
  return withTenant(opts.db, opts, async (tx) => {
    const p = await plan(tx, hospital, opts.values)
    return { total: p.total, recipients: p.recipients.length, skipped: p.skipped }
  })
}

export async function sendBulk(opts: TenantOptions & { values: Values }): Promise<BulkSendResult> {
  const channel = opts.values.type
  const hospital = await hospitalProfile(opts.db, opts.hospitalId)
  return withTenant(opts.db, opts, async (tx) => {
    const p = await plan(tx, hospital, opts.values)
    const provider = p.sending.providers[channel]
    const sendAfter = heldByQuietHours(channel, p.template?.category)
      ? nextOpening(new Date(), p.sending.window)
      : null
    const [batch] = await tx
      .insert(messageBatches)
      .values({
        hospitalId: opts.hospitalId,
        channel,
        templateId: p.template?.id ?? null,
        subject: opts.values.subject ?? null,
        content: opts.values.content?.trim() || p.template?.body || '',
        requested: p.total,
        queued: p.recipients.length,
        skipped: p.skipped,
        createdByUserId: opts.userId,
      })
      .returning({ id: messageBatches.id })
    if (!batch) throw new Error('message batch not stored')
    if (p.recipients.length > 0) {
      const at = sendAfter?.toISOString() ?? null
      await tx.execute(sql`
        insert into communications (hospital_id, id, lead_id, patient_id, type, direction, content,
          status, metadata, created_by_user_id, read_at, contact_address, provider, sandbox,
          template_id, batch_id, send_after, status_changed_at)
        select ${opts.hospitalId}::uuid, r.id, r.lead_id, r.patient_id, ${channel}, 'outbound',
          r.content, 'queued',
          jsonb_build_object('template', ${templateLabel(p.template)}::text)
            || case when r.subject is null then '{}'::jsonb
                    else jsonb_build_object('subject', r.subject) end,
          ${opts.userId}, now(), r.address, ${provider}, ${provider === 'sandbox'},
          ${p.template?.id ?? null}::uuid, ${batch.id}::uuid, ${at}::timestamptz, now()
        from jsonb_to_recordset(${JSON.stringify(p.recipients)}::jsonb)
          as r(id uuid, lead_id uuid, patient_id uuid, content text, address text, subject text)`)
      await tx.execute(sql`
        insert into jobs (name, hospital_id, payload, run_at, max_attempts, dedupe_key)
        select ${SEND_JOB}, ${opts.hospitalId}::uuid, jsonb_build_object('id', r.id),
          coalesce(${at}::timestamptz, now()), ${SEND_ATTEMPTS}::int,
          ${`${opts.hospitalId}:${SEND_JOB}:`} || r.id::text
        from unnest(${uuidArray(p.recipients.map((r) => r.id))}::uuid[]) as r(id)`)
      await touchLeads(
        tx,
        p.recipients.map((r) => r.lead_id),
        channel,
        'outbound',
      )
    }
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'message.bulk_queued',
      entityType: 'message_batch',
      entityId: batch.id,
      summary: `Queued a bulk ${channelLabels[channel]} message to ${p.recipients.length} of ${p.total} leads${sendAfter ? ' (held for quiet hours)' : ''}`,
    })
    return { batchId: batch.id, queued: p.recipients.length, skipped: p.skipped }
  })
}
