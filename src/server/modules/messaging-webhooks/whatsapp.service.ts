import { and, eq, ne } from 'drizzle-orm'
import type { TemplateApprovalStatus } from '../../../shared/messaging'
import type { AppDb, Tx } from '../../db/client'
import { messageTemplates } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { verifyMetaSignature } from '../../integrations/meta/signature'
import { recordAudit } from '../audit/audit.service'
import type { OutboundStatus } from '../messaging/status'
import { webhookConfig } from './config-cache'
import { META_OPTED_OUT, metaFailureReason } from './failure-reasons'
import { storeInbound } from './inbound.service'
import { buttonOf, keywordOf } from './keywords'
import { type MessagesValue, type MetaChange, parseMetaPayload } from './meta-payload'
import { hospitalOfBusinessAccount, phoneRoutes } from './meta-routing'
import { DeliveryRefused } from './refusals'
import { applyStatus, type MessageRef, recordProviderOptOut } from './status.service'

/** WhatsApp webhook bodies larger than this are refused (413) before anything reads them. */
export const WHATSAPP_WEBHOOK_BODY_LIMIT = 512 * 1024

/** The same answer for an unknown or mixed routing and a wrong signature: no oracle. */
const refused = () => new AppError('FORBIDDEN', 'Invalid signature')

export interface WhatsappDelivery {
  db: AppDb
  raw: Buffer
  signature: string | string[] | undefined
  log?: { warn: (obj: object, msg: string) => void }
}

/** The one hospital every change of the delivery routes to; 403 when unknown or mixed. */
async function routeOf(db: AppDb, changes: MetaChange[]): Promise<string> {
  const phoneIds = [
    ...new Set(changes.flatMap((c) => (c.kind === 'messages' ? [c.phoneNumberId] : []))),
  ]
  const routes = await phoneRoutes(db, phoneIds)
  const hospitals = new Set<string>()
  for (const phoneId of phoneIds) {
    const hospitalId = routes.get(phoneId)
    if (!hospitalId) throw refused()
    hospitals.add(hospitalId)
  }
  for (const account of new Set(
    changes.flatMap((c) => (c.kind === 'template' ? [c.businessAccountId] : [])),
  )) {
    const hospitalId = await hospitalOfBusinessAccount(db, account)
    if (!hospitalId) throw refused()
    hospitals.add(hospitalId)
  }
  const [only, ...others] = hospitals
  if (!only || others.length) throw refused()
  return only
}

/**
 * POST /api/webhooks/whatsapp. The raw body is parsed only to route it (400 when it is not
 * Meta's WebhookPayload); every change must route to the same hospital, whose WhatsApp is on
 * Meta with that very number (and business account), and X-Hub-Signature-256 must match that
 * hospital's app secret: otherwise 403 and nothing is stored. An unsigned, unparsable or
 * unrouted delivery is refused before any hospital's settings are read; a routed one decrypts
 * that one hospital's (DeliveryRefused names it, for the refusal counts). Then one transaction in that hospital handles
 * statuses (forward only), inbound messages and template status updates.
 */
export async function acceptWhatsapp(delivery: WhatsappDelivery): Promise<{ changes: number }> {
  const { db, raw, signature } = delivery
  if (typeof signature !== 'string' || !signature) throw refused()
  let json: unknown
  try {
    json = JSON.parse(raw.toString('utf8'))
  } catch {
    throw new AppError('BAD_REQUEST', 'The body is not JSON')
  }
  const changes = parseMetaPayload(json)
  if (!changes) throw new AppError('BAD_REQUEST', 'Not a WhatsApp Business Account webhook')
  if (!changes.length) return { changes: 0 }
  const hospitalId = await routeOf(db, changes)
  // Only now, and only for the one hospital the index named, are secrets decrypted.
  const refusedFor = () => new DeliveryRefused(refused(), hospitalId)
  const found = await webhookConfig(db, hospitalId, delivery.log)
  const wa = found?.config.whatsapp
  if (wa?.provider !== 'meta') throw refusedFor()
  const numbers = changes.flatMap((c) => (c.kind === 'messages' ? [c.phoneNumberId] : []))
  if (numbers.some((n) => n !== wa.phoneNumberId)) throw refusedFor()
  const accounts = changes.flatMap((c) => (c.kind === 'template' ? [c.businessAccountId] : []))
  if (accounts.some((a) => a !== wa.businessAccountId)) throw refusedFor()
  if (!verifyMetaSignature(raw, signature, wa.appSecret)) throw refusedFor()
  await withTenant(db, { hospitalId, userId: null }, async (tx) => {
    for (const change of changes) {
      if (change.kind === 'messages') await handleMessages(tx, hospitalId, change.value)
      else await handleTemplate(tx, hospitalId, change.value)
    }
  })
  return { changes: changes.length }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const statusOf: Record<string, OutboundStatus> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
}

async function handleMessages(tx: Tx, hospitalId: string, value: MessagesValue): Promise<void> {
  for (const s of value.statuses ?? []) {
    const status = statusOf[s.status]
    if (!status) continue
    const code = s.errors?.[0]?.code
    // By our id when the send left it (also found when a crash kept the wamid from being
    // stored), else by the wamid.
    const opaque = s.biz_opaque_callback_data
    const ref: MessageRef =
      opaque && UUID.test(opaque) ? { id: opaque } : { provider: 'meta', providerMessageId: s.id }
    await applyStatus(tx, hospitalId, ref, {
      status,
      providerMessageId: s.id,
      ...(status === 'failed'
        ? { failureCode: code ?? null, failureReason: metaFailureReason(code) }
        : {}),
    })
    if (code === META_OPTED_OUT) await recordProviderOptOut(tx, hospitalId, ref)
  }
  const names = new Map(
    (value.contacts ?? []).map((c) => [c.wa_id ?? '', c.profile?.name ?? undefined]),
  )
  for (const m of value.messages ?? []) {
    const reply = m.interactive?.button_reply ?? m.interactive?.list_reply
    const buttonTitle = m.button?.text ?? reply?.title
    const text = m.text?.body ?? buttonTitle ?? `[${m.type}]`
    await storeInbound(tx, {
      hospitalId,
      channel: 'whatsapp',
      provider: 'meta',
      providerMessageId: m.id,
      from: m.from,
      text,
      profileName:
        names.get(m.from) ??
        (value.contacts?.length === 1 ? names.values().next().value : undefined),
      consent: m.text ? keywordOf(m.text.body) : buttonTitle ? buttonOf(buttonTitle) : null,
      metadata: { via: 'meta', type: m.type },
    })
  }
}

const approvalOf: Record<string, TemplateApprovalStatus> = {
  APPROVED: 'approved',
  REJECTED: 'rejected',
  DISABLED: 'rejected',
  PENDING: 'pending',
  IN_APPEAL: 'pending',
  PAUSED: 'paused',
  FLAGGED: 'paused',
}

/** message_template_status_update: the template's approval as Meta now sees it. */
async function handleTemplate(
  tx: Tx,
  hospitalId: string,
  value: { event: string; message_template_name: string },
): Promise<void> {
  const approval = approvalOf[value.event.toUpperCase()]
  if (!approval) return
  const changed = await tx
    .update(messageTemplates)
    .set({ approvalStatus: approval, updatedAt: new Date() })
    .where(
      and(
        eq(messageTemplates.channel, 'whatsapp'),
        eq(messageTemplates.providerTemplateName, value.message_template_name),
        ne(messageTemplates.approvalStatus, approval),
      ),
    )
    .returning({ id: messageTemplates.id, name: messageTemplates.name })
  for (const t of changed) {
    await recordAudit(tx, {
      hospitalId,
      actorUserId: null,
      action: 'message_template.approval',
      entityType: 'message_template',
      entityId: t.id,
      summary: `WhatsApp template ${t.name}: Meta set it ${approval}`,
    })
  }
}
