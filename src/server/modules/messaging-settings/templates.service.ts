import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm'
import type { MessageChannel } from '../../../shared/messaging'
import type {
  CreateTemplateInput,
  MessageTemplate,
  UpdateTemplateInput,
} from '../../../shared/schemas/messaging-templates'
import type { AppDb, Tx } from '../../db/client'
import { messageTemplates } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { ensureSpecTemplates, specTemplates } from './spec-templates'
import { checked } from './template-rules'
import { isUniqueViolation } from '../../db/sql-error'
import { effectiveApproval, sandboxApproves, whatsappProviderOf } from '../messaging/rules'

export type TemplateRow = typeof messageTemplates.$inferSelect

export interface TemplateOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

/**
 * A template as the API shows it. `whatsappProvider`: the hospital's ('sandbox' when none is
 * connected); on the sandbox every WhatsApp template is approved, labelled Sandbox (issue 40).
 */
export function toTemplate(row: TemplateRow, whatsappProvider: string): MessageTemplate {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    channel: row.channel,
    subject: row.subject,
    body: row.body,
    category: row.category,
    providerTemplateName: row.providerTemplateName,
    contentSid: row.contentSid,
    language: row.language,
    variables: row.variables,
    dltTemplateId: row.dltTemplateId,
    approvalStatus: effectiveApproval(row, whatsappProvider),
    sandbox: sandboxApproves(row, whatsappProvider),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** The hospital's WhatsApp provider, read in its own tenant transaction. */
export async function whatsappProviderFor(opts: TemplateOptions): Promise<string> {
  return withTenant(opts.db, opts, whatsappProviderOf)
}

async function ensureOnce(tx: Tx, hospitalId: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(messageTemplates)
    .where(isNotNull(messageTemplates.key))
  if ((row?.n ?? 0) < specTemplates.length) await ensureSpecTemplates(tx, hospitalId)
}

/** GET /api/message-templates: the spec's three per channel are created on the first read. */
export async function listTemplates(
  opts: TemplateOptions & { channel?: MessageChannel | undefined },
): Promise<MessageTemplate[]> {
  const { rows, whatsapp } = await withTenant(opts.db, opts, async (tx) => {
    await ensureOnce(tx, opts.hospitalId)
    const whatsapp = await whatsappProviderOf(tx)
    const rows = await tx
      .select()
      .from(messageTemplates)
      .where(opts.channel ? eq(messageTemplates.channel, opts.channel) : undefined)
      .orderBy(
        asc(messageTemplates.channel),
        sql`${messageTemplates.key} is null`,
        asc(messageTemplates.createdAt),
        asc(messageTemplates.name),
      )
    return { rows, whatsapp }
  })
  // On the sandbox every WhatsApp template is approved (issue 40): rules.ts effectiveApproval.
  return rows.map((r) => toTemplate(r, whatsapp))
}

const NAME_TAKEN = 'A template with this name already exists for this channel'

async function audited<T>(
  opts: TemplateOptions,
  action: string,
  summary: (r: T) => string,
  fn: (tx: Tx) => Promise<T & { id: string }>,
) {
  try {
    return await withTenant(opts.db, opts, async (tx) => {
      const result = await fn(tx)
      await recordAudit(tx, {
        hospitalId: opts.hospitalId,
        actorUserId: opts.userId,
        impersonatorUserId: opts.impersonatorUserId,
        action,
        entityType: 'message_template',
        entityId: result.id,
        summary: summary(result),
      })
      return result
    })
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', NAME_TAKEN, [{ path: 'name', message: NAME_TAKEN }])
    throw error
  }
}

const approvalFor = (v: {
  channel: MessageChannel
  providerTemplateName: string | null
  contentSid: string | null
}) =>
  v.channel === 'whatsapp' && (v.providerTemplateName || v.contentSid) ? 'pending' : 'not_required'

/** POST /api/message-templates (admins). */
export async function createTemplate(
  opts: TemplateOptions & { values: CreateTemplateInput },
): Promise<MessageTemplate> {
  const i = opts.values
  const v = checked({
    key: null,
    name: i.name,
    channel: i.channel,
    subject: i.subject ?? null,
    body: i.body,
    category: i.category,
    providerTemplateName: i.providerTemplateName ?? null,
    contentSid: i.contentSid ?? null,
    language: i.language,
    variables: i.variables,
    dltTemplateId: i.dltTemplateId ?? null,
  })
  const row = await audited(
    opts,
    'message_template.created',
    (r: TemplateRow) => `Template "${r.name}" (${r.channel}) created`,
    async (tx) => {
      const [created] = await tx
        .insert(messageTemplates)
        .values({ hospitalId: opts.hospitalId, ...v, approvalStatus: approvalFor(v) })
        .returning()
      if (!created) throw new Error('template insert returned nothing')
      return created
    },
  )
  return toTemplate(row, await whatsappProviderFor(opts))
}

async function findOwn(tx: Tx, id: string): Promise<TemplateRow> {
  const [row] = await tx
    .select()
    .from(messageTemplates)
    .where(eq(messageTemplates.id, id))
    .for('update')
  if (!row) throw notFound('Template')
  return row
}

/** PATCH /api/message-templates/:id (admins): the spec's may be edited too, not re-keyed. */
export async function updateTemplate(
  opts: TemplateOptions & { id: string; values: UpdateTemplateInput },
): Promise<MessageTemplate> {
  const row = await audited(
    opts,
    'message_template.updated',
    (r: TemplateRow) => `Template "${r.name}" (${r.channel}) updated`,
    async (tx) => {
      const before = await findOwn(tx, opts.id)
      const changes = Object.fromEntries(
        Object.entries(opts.values).filter(([, v]) => v !== undefined),
      )
      const rest = {
        key: before.key,
        name: before.name,
        channel: before.channel,
        subject: before.subject,
        body: before.body,
        category: before.category,
        providerTemplateName: before.providerTemplateName,
        contentSid: before.contentSid,
        language: before.language,
        variables: before.variables,
        dltTemplateId: before.dltTemplateId,
      }
      const v = checked({ ...rest, ...changes })
      const providerChanged =
        v.providerTemplateName !== before.providerTemplateName || v.contentSid !== before.contentSid
      const [updated] = await tx
        .update(messageTemplates)
        .set({
          ...v,
          ...(providerChanged ? { approvalStatus: approvalFor(v) } : {}),
          updatedAt: new Date(),
        })
        .where(
          and(eq(messageTemplates.id, opts.id), eq(messageTemplates.hospitalId, opts.hospitalId)),
        )
        .returning()
      if (!updated) throw notFound('Template')
      return updated
    },
  )
  return toTemplate(row, await whatsappProviderFor(opts))
}

export const SPEC_TEMPLATE_UNDELETABLE =
  'The welcome, appointment-reminder and follow-up templates belong to the message dialog: edit their text instead of deleting them.'

/** DELETE /api/message-templates/:id (admins; not the spec's three). */
export async function deleteTemplate(opts: TemplateOptions & { id: string }): Promise<void> {
  await audited(
    opts,
    'message_template.deleted',
    (r: TemplateRow) => `Template "${r.name}" (${r.channel}) deleted`,
    async (tx) => {
      const row = await findOwn(tx, opts.id)
      if (row.key) throw new AppError('CONFLICT', SPEC_TEMPLATE_UNDELETABLE)
      await tx.delete(messageTemplates).where(eq(messageTemplates.id, opts.id))
      return row
    },
  )
}
