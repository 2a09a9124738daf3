import { and, eq, gt, sql } from 'drizzle-orm'
import type { MessageChannel } from '../../../shared/messaging'
import type { SkipReason } from '../../../shared/schemas/messaging-send'
import { normalizeMobilePhone } from '../../../shared/phone'
import type { AppDb, Tx } from '../../db/client'
import { withPlatform } from '../../db/tenant'
import { DEFAULT_TIME_ZONE } from '../../../shared/dates'
import { hospitals } from '../../db/schema/hospitals'
import { communications, leads } from '../../db/schema/leads'
import {
  messageTemplates,
  messagingConnections,
  notificationSettings,
} from '../../db/schema/messaging'
import { patients } from '../../db/schema/patients'
import { AppError, notFound } from '../../http/app-error'
import { DEFAULT_SEND_WINDOW, type SendWindow } from './quiet-hours'

/**
 * The sending rules' reads (issue 25): who a message goes to, the WhatsApp 24-hour window,
 * templates, the hospital's providers and day window. Each works for one contact or thousands
 * (bulk) in one statement.
 */

export const WHATSAPP_WINDOW_MS = 24 * 3_600_000

export const channelLabels: Record<MessageChannel, string> = {
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  email: 'Email',
}

export const optedOutMessage = (channel: MessageChannel) =>
  `This contact has opted out of ${channelLabels[channel]} messages.`
export const OUTSIDE_WINDOW_MESSAGE =
  'No WhatsApp message from this contact in the last 24 hours: send an approved template instead.'

export interface Contact {
  /** The lead, or the lead a patient was converted from (its history shows the message too). */
  leadId: string | null
  patientId: string | null
  leadStatus: string | null
  name: string
  phone: string | null
  email: string | null
}

/** The lead or patient in the transaction's hospital; 404 otherwise (another hospital's too). */
export async function findContact(
  tx: Tx,
  who: { leadId?: string | null | undefined; patientId?: string | null | undefined },
): Promise<Contact> {
  if (who.leadId) {
    const [lead] = await tx
      .select({
        id: leads.id,
        name: leads.name,
        phone: leads.phone,
        email: leads.email,
        status: leads.status,
        patientId: leads.patientId,
      })
      .from(leads)
      .where(eq(leads.id, who.leadId))
    if (!lead) throw notFound('Lead')
    return {
      leadId: lead.id,
      patientId: lead.patientId,
      leadStatus: lead.status,
      name: lead.name,
      phone: lead.phone,
      email: lead.email,
    }
  }
  if (!who.patientId) throw new AppError('VALIDATION', 'Give either leadId or patientId')
  const [patient] = await tx
    .select({ id: patients.id, name: patients.name, phone: patients.phone, email: patients.email })
    .from(patients)
    .where(eq(patients.id, who.patientId))
  if (!patient) throw notFound('Patient')
  const [lead] = await tx
    .select({ id: leads.id, status: leads.status })
    .from(leads)
    .where(eq(leads.patientId, patient.id))
    .limit(1)
  return {
    leadId: lead?.id ?? null,
    patientId: patient.id,
    leadStatus: lead?.status ?? null,
    name: patient.name,
    phone: patient.phone,
    email: patient.email,
  }
}

/** Where a message on `channel` goes: E.164 mobile or lower-case email, or why it cannot. */
export function addressFor(
  channel: MessageChannel,
  contact: { phone: string | null; email: string | null },
): { address: string } | { skip: Extract<SkipReason, 'no_email' | 'no_phone' | 'invalid_number'> } {
  if (channel === 'email') {
    const email = contact.email?.trim().toLowerCase()
    return email ? { address: email } : { skip: 'no_email' }
  }
  if (!contact.phone?.trim()) return { skip: 'no_phone' }
  const phone = normalizeMobilePhone(contact.phone)
  return phone ? { address: phone } : { skip: 'invalid_number' }
}

/** Why a single send is refused for a missing or unusable address (400 with the field). */
export function addressError(
  reason: 'no_email' | 'no_phone' | 'invalid_number',
  channel: MessageChannel,
) {
  const label = channelLabels[channel]
  if (reason === 'no_email') {
    return new AppError('VALIDATION', 'No email address on file for this contact.', [
      { path: 'email', message: 'No email address on file for this contact.' },
    ])
  }
  const message =
    reason === 'no_phone'
      ? 'No phone number on file for this contact.'
      : `This phone number cannot receive ${label} messages (not a valid mobile number).`
  return new AppError('VALIDATION', message, [{ path: 'phone', message }])
}

/** The newest inbound WhatsApp message per address within the last 24 hours. */
export async function lastInboundWhatsapp(
  tx: Tx,
  addresses: readonly string[],
  since = new Date(Date.now() - WHATSAPP_WINDOW_MS),
): Promise<Map<string, Date>> {
  const unique = [...new Set(addresses)]
  if (unique.length === 0) return new Map()
  const rows = await tx
    .select({
      address: communications.contactAddress,
      at: sql<string>`max(${communications.createdAt})`.mapWith((v: string | Date) => new Date(v)),
    })
    .from(communications)
    .where(
      and(
        eq(communications.direction, 'inbound'),
        eq(communications.type, 'whatsapp'),
        sql`${communications.contactAddress} = any(${textArray(unique)}::text[])`,
        gt(communications.createdAt, since),
      ),
    )
    .groupBy(communications.contactAddress)
  return new Map(rows.flatMap((r) => (r.address ? [[r.address, r.at as unknown as Date]] : [])))
}

/** A PostgreSQL text[] literal (one bound parameter however many values). */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`
}

export type TemplateRow = typeof messageTemplates.$inferSelect

/** The hospital's template for `channel`; 404 for a missing one or another hospital's. */
export async function findTemplate(
  tx: Tx,
  id: string,
  channel: MessageChannel,
): Promise<TemplateRow> {
  const [row] = await tx.select().from(messageTemplates).where(eq(messageTemplates.id, id))
  if (!row) throw notFound('Template')
  if (row.channel !== channel) {
    throw new AppError('VALIDATION', `This template is not for ${channelLabels[channel]}`, [
      { path: 'templateId', message: `This template is not for ${channelLabels[channel]}` },
    ])
  }
  return row
}

/**
 * The sandbox stands in for a connected WhatsApp provider whose templates are all approved
 * (issue 40): with no provider configured, every WhatsApp template is usable as an approved one
 * (shown with a Sandbox label). With a real provider, only its own approval counts.
 */
export function sandboxApproves(
  template: Pick<TemplateRow, 'channel'>,
  whatsappProvider: string,
): boolean {
  return template.channel === 'whatsapp' && whatsappProvider === 'sandbox'
}

/** The approval a template has for this hospital now: its provider's, or the sandbox's. */
export function effectiveApproval(
  template: Pick<TemplateRow, 'channel' | 'approvalStatus'>,
  whatsappProvider: string,
): TemplateRow['approvalStatus'] {
  return sandboxApproves(template, whatsappProvider) ? 'approved' : template.approvalStatus
}

/**
 * A WhatsApp template that may open a conversation outside the 24-hour window: approved by the
 * hospital's provider (naming the provider's template), or any WhatsApp template on the sandbox.
 */
export function opensConversation(
  template: TemplateRow | null | undefined,
  whatsappProvider: string,
): boolean {
  if (!template || template.channel !== 'whatsapp') return false
  if (sandboxApproves(template, whatsappProvider)) return true
  return Boolean(
    template.approvalStatus === 'approved' &&
    (template.providerTemplateName || template.contentSid),
  )
}

/** The hospital's WhatsApp provider ('sandbox' when none is configured), in its transaction. */
export async function whatsappProviderOf(tx: Tx): Promise<string> {
  const [row] = await tx
    .select({ whatsapp: messagingConnections.whatsappProvider })
    .from(messagingConnections)
  return row?.whatsapp ?? 'sandbox'
}

/** A DLT-registered text with the spec's {name} placeholders as DLT's {#var#}. */
export function dltPattern(body: string): string {
  return body.replace(/\{[a-zA-Z][a-zA-Z0-9_]*\}/g, '{#var#}')
}

export const DLT_MISMATCH =
  'This SMS does not match its DLT-registered template: only the variable parts may change.'

/** What a message needs of its hospital (a platform table: read as the platform). */
export interface HospitalProfile {
  name: string
  timeZone: string
}

/** The hospital's name and time zone, read as the platform (app_user cannot read hospitals). */
export async function hospitalProfile(db: AppDb, hospitalId: string): Promise<HospitalProfile> {
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({ name: hospitals.name, timeZone: hospitals.timeZone })
      .from(hospitals)
      .where(eq(hospitals.id, hospitalId)),
  )
  return row ?? { name: '', timeZone: DEFAULT_TIME_ZONE }
}

export interface HospitalSending {
  providers: Record<MessageChannel, string>
  window: SendWindow
  hospitalName: string
}

/**
 * In the hospital's tenant transaction: its providers per channel and its day window (in
 * `profile`'s time zone; without a profile, India's, and the send job checks again with the
 * hospital's own before sending).
 */
export async function hospitalSending(
  tx: Tx,
  profile: HospitalProfile | null | undefined,
): Promise<HospitalSending> {
  const [providers] = await tx
    .select({
      whatsapp: messagingConnections.whatsappProvider,
      sms: messagingConnections.smsProvider,
      email: messagingConnections.emailProvider,
    })
    .from(messagingConnections)
  const window = await sendWindow(tx, profile?.timeZone ?? DEFAULT_TIME_ZONE)
  return {
    hospitalName: profile?.name ?? '',
    providers: {
      whatsapp: providers?.whatsapp ?? 'sandbox',
      sms: providers?.sms ?? 'sandbox',
      email: providers?.email ?? 'sandbox',
    },
    window,
  }
}

/** The hospital's day window for promotional messages (Settings → Notifications). */
export async function sendWindow(tx: Tx, timeZone: string): Promise<SendWindow> {
  const [row] = await tx
    .select({
      start: notificationSettings.quietHoursStart,
      end: notificationSettings.quietHoursEnd,
    })
    .from(notificationSettings)
  return {
    timeZone,
    start: row?.start ?? DEFAULT_SEND_WINDOW.start,
    end: row?.end ?? DEFAULT_SEND_WINDOW.end,
  }
}
