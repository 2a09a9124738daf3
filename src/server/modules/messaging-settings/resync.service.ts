import { and, eq, isNotNull, or } from 'drizzle-orm'
import type { TemplateApprovalStatus } from '../../../shared/messaging'
import type { ResyncResult } from '../../../shared/schemas/messaging-templates'
import { messageTemplates } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { appSecretProof, graphErrorFrom } from '../../integrations/meta/graph'
import type { ProviderUrls } from '../../integrations/messaging/registry'
import {
  fetchTwilioApproval,
  TWILIO_CONTENT_URL,
  type TwilioApproval,
} from '../../integrations/twilio/content-approvals'
import { recordAudit } from '../audit/audit.service'
import { readMessagingConfig } from './connection.service'
import { type TemplateOptions, toTemplate } from './templates.service'

/** Pages of Meta's template list read at most (100 each). */
const MAX_PAGES = 20
const TIMEOUT_MS = 15_000

/** Content templates read from Twilio at most in one resync. */
const MAX_TWILIO_TEMPLATES = 100
export const SANDBOX_APPROVAL_NOTE =
  'WhatsApp is on the sandbox: templates naming a provider template count as approved there, so the demo can open conversations. Connect Meta to sync real approvals.'

/** Meta's template statuses (WhatsApp Manager) in ours. */
export function approvalOf(status: string): TemplateApprovalStatus | null {
  switch (status.toUpperCase()) {
    case 'APPROVED':
      return 'approved'
    case 'PENDING':
    case 'IN_APPEAL':
    case 'PENDING_DELETION':
      return 'pending'
    case 'REJECTED':
    case 'DISABLED':
      return 'rejected'
    case 'PAUSED':
    case 'LIMIT_EXCEEDED':
      return 'paused'
    default:
      return null
  }
}

interface MetaTemplate {
  name: string
  status: string
  language?: string
}

async function metaTemplates(
  urls: ProviderUrls,
  c: { businessAccountId: string; accessToken: string; appSecret: string },
): Promise<MetaTemplate[]> {
  const found: MetaTemplate[] = []
  let after: string | null = null
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = new URL(
      `${urls.metaGraph.replace(/\/+$/, '')}/${urls.metaGraphVersion}/${encodeURIComponent(c.businessAccountId)}/message_templates`,
    )
    url.searchParams.set('fields', 'name,status,language,category')
    url.searchParams.set('limit', '100')
    url.searchParams.set('appsecret_proof', appSecretProof(c.accessToken, c.appSecret))
    if (after) url.searchParams.set('after', after)
    let res: Response
    try {
      res = await fetch(url, {
        headers: { authorization: `Bearer ${c.accessToken}` },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
    } catch {
      throw new AppError('UPSTREAM', "Meta API Error: Meta's Graph API could not be reached")
    }
    const body = (await res.json().catch(() => null)) as {
      data?: MetaTemplate[]
      paging?: { cursors?: { after?: string }; next?: string }
    } | null
    if (!res.ok) throw new AppError('UPSTREAM', graphErrorFrom(res.status, body).message)
    for (const t of body?.data ?? []) {
      if (typeof t?.name === 'string' && typeof t.status === 'string') found.push(t)
    }
    after = body?.paging?.next ? (body.paging.cursors?.after ?? null) : null
    if (!after) break
  }
  return found
}

/** Each Content SID's WhatsApp approval from Twilio's Content API (null: Twilio does not know it). */
async function twilioApprovals(
  urls: ProviderUrls,
  account: { accountSid: string; authToken: string },
  contentSids: string[],
): Promise<Map<string, TwilioApproval | null>> {
  const found = new Map<string, TwilioApproval | null>()
  for (const sid of contentSids.slice(0, MAX_TWILIO_TEMPLATES)) {
    if (found.has(sid)) continue
    found.set(
      sid,
      await fetchTwilioApproval(urls.twilioContent ?? TWILIO_CONTENT_URL, account, sid),
    )
  }
  return found
}

/**
 * POST /api/message-templates/resync (admins): WhatsApp templates' approval from the provider.
 * Meta: its Graph list of the business account's templates, matched by name (and language when
 * Meta has the same name in several). Twilio: each template's Content SID from the Content
 * API's ApprovalRequests. Sandbox: templates naming a provider template count as approved.
 */
export async function resyncTemplates(
  opts: TemplateOptions & { urls: ProviderUrls },
): Promise<ResyncResult> {
  const config = await withTenant(opts.db, opts, (tx) => readMessagingConfig(tx, opts.hospitalId))
  const wa = config.whatsapp
  const notes: string[] = []
  const remote = wa.provider === 'meta' ? await metaTemplates(opts.urls, wa) : []
  let contents = new Map<string, TwilioApproval | null>()
  if (wa.provider === 'twilio') {
    const sids = await withTenant(opts.db, opts, async (tx) =>
      (
        await tx
          .select({ sid: messageTemplates.contentSid })
          .from(messageTemplates)
          .where(
            and(eq(messageTemplates.channel, 'whatsapp'), isNotNull(messageTemplates.contentSid)),
          )
      ).flatMap((r) => (r.sid ? [r.sid] : [])),
    )
    contents = await twilioApprovals(opts.urls, wa, sids)
  }
  if (wa.provider === 'sandbox') notes.push(SANDBOX_APPROVAL_NOTE)
  return withTenant(opts.db, opts, async (tx) => {
    const named = await tx
      .select()
      .from(messageTemplates)
      .where(
        and(
          eq(messageTemplates.channel, 'whatsapp'),
          or(
            isNotNull(messageTemplates.providerTemplateName),
            isNotNull(messageTemplates.contentSid),
          ),
        ),
      )
    let updated = 0
    const missing: string[] = []
    const unsubmitted: string[] = []
    const rejected: string[] = []
    for (const t of named) {
      let status: TemplateApprovalStatus | null = null
      if (wa.provider === 'sandbox') status = 'approved'
      if (wa.provider === 'twilio') {
        if (!t.contentSid) continue
        if (!contents.has(t.contentSid)) continue // beyond this resync's limit
        const approval = contents.get(t.contentSid) ?? null
        if (!approval) missing.push(`${t.name} (${t.contentSid})`)
        else if (!approval.status) unsubmitted.push(t.name)
        else if (approval.status === 'rejected' && approval.rejectionReason)
          rejected.push(`${t.name}: ${approval.rejectionReason}`)
        status = approval?.status ?? null
      }
      if (wa.provider === 'meta' && t.providerTemplateName) {
        const same = remote.filter((r) => r.name === t.providerTemplateName)
        const match = same.find((r) => r.language === t.language) ?? same[0]
        status = match ? approvalOf(match.status) : null
        if (!match) missing.push(t.providerTemplateName ?? t.name)
      }
      if (!status || status === t.approvalStatus) continue
      await tx
        .update(messageTemplates)
        .set({ approvalStatus: status, updatedAt: new Date() })
        .where(eq(messageTemplates.id, t.id))
      updated++
    }
    if (missing.length && wa.provider === 'meta') {
      notes.push(
        `Not found in WhatsApp Manager: ${missing.join(', ')}. Check the template name and language.`,
      )
    }
    if (missing.length && wa.provider === 'twilio') {
      notes.push(`Not found in Twilio's Content API: ${missing.join(', ')}. Check the Content SID.`)
    }
    if (unsubmitted.length) {
      notes.push(`Not yet submitted to WhatsApp for approval in Twilio: ${unsubmitted.join(', ')}.`)
    }
    if (rejected.length) notes.push(`Rejected by WhatsApp: ${rejected.join('; ')}.`)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'message_template.resynced',
      entityType: 'message_template',
      entityId: null,
      summary: `WhatsApp template approvals resynced from ${wa.provider}: ${updated} changed`,
    })
    const rows = await tx
      .select()
      .from(messageTemplates)
      .where(eq(messageTemplates.channel, 'whatsapp'))
    return {
      checked: named.length,
      updated,
      notes,
      templates: rows.map((r) => toTemplate(r, wa.provider)),
    }
  })
}
