import { and, eq, inArray, sql } from 'drizzle-orm'
import type { SaveMessagingSettingsInput } from '../../../shared/schemas/messaging-settings'
import type { AppDb, Tx } from '../../db/client'
import {
  messagingRoutes,
  WHATSAPP_ACCOUNT_ROUTE,
  WHATSAPP_PHONE_ROUTE,
} from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { verifyTokenDigest } from '../../integrations/meta/signature'
import {
  type GraphEndpoint,
  proveWhatsappIds,
  type WhatsappIds,
} from '../../integrations/whatsapp-cloud/prove-ids'
import { recordAudit } from '../audit/audit.service'
import {
  type ConnectionRow,
  channelValues,
  providerOf,
  readConnectionRow,
} from './connection.service'
import { fieldsOf } from './fields'

/**
 * WhatsApp ids are proven (issue 39; as Meta lead pages are, docs/decisions/021). A phone
 * number id and a WhatsApp Business Account id reach a hospital's webhook (messaging_routes,
 * the index the public webhook routes by) only once the hospital's own access token proved them
 * with Meta's Graph API on save. An id another hospital holds is taken over only by such a fresh
 * proof; that hospital's admins get an email and both hospitals an audit row. A channel that is
 * not on Meta with every required field (the sandbox) routes nothing.
 */

type ChannelInput = NonNullable<SaveMessagingSettingsInput['whatsapp']>

/** The ids and credentials a complete Meta WhatsApp set-up routes, with its verify token. */
export interface MetaWhatsapp extends WhatsappIds {
  verifyToken: string | null
}

/** What the save may route: proven now (`fresh`), or unchanged and already routed. */
export type WhatsappProof = { ids: MetaWhatsapp; fresh: boolean }

const str = (v: unknown) => (typeof v === 'string' && v ? v : null)

function metaOf(provider: string, values: Record<string, unknown>): MetaWhatsapp | null {
  const fields = fieldsOf('whatsapp', provider)
  if (provider !== 'meta' || !fields?.required.every((f) => values[f] !== undefined)) return null
  const [phoneNumberId, businessAccountId, accessToken, appSecret] = [
    str(values.phoneNumberId),
    str(values.businessAccountId),
    str(values.accessToken),
    str(values.appSecret),
  ]
  if (!phoneNumberId || !businessAccountId || !accessToken || !appSecret) return null
  return {
    phoneNumberId,
    businessAccountId,
    accessToken,
    appSecret,
    verifyToken: str(values.verifyToken),
  }
}

/** The stored set-up's Meta WhatsApp ids (secrets decrypted), or null when not complete Meta. */
export function metaWhatsappOf(row: ConnectionRow | undefined, hospitalId: string) {
  const c = channelValues(row, hospitalId, 'whatsapp')
  return metaOf(c.provider, c.values)
}

/** The same after `input` is applied (the save's rules: '' clears a setting, keeps a secret). */
function afterInput(row: ConnectionRow | undefined, hospitalId: string, input: ChannelInput) {
  const before = row ? providerOf(row, 'whatsapp') : 'sandbox'
  const values = new Map<string, unknown>(
    before === input.provider
      ? Object.entries(channelValues(row, hospitalId, 'whatsapp').values)
      : [],
  )
  for (const [field, value] of Object.entries(input.settings as Record<string, unknown>)) {
    if (value === '') values.delete(field)
    else if (value !== undefined) values.set(field, value)
  }
  for (const [field, value] of Object.entries(input.secrets as Record<string, unknown>)) {
    if (typeof value === 'string' && value !== '') values.set(field, value)
  }
  return metaOf(input.provider, Object.fromEntries(values))
}

export const sameIds = (a: WhatsappIds, b: WhatsappIds) =>
  a.phoneNumberId === b.phoneNumberId &&
  a.businessAccountId === b.businessAccountId &&
  a.accessToken === b.accessToken &&
  a.appSecret === b.appSecret

const routesOf = (ids: WhatsappIds) =>
  [
    { provider: WHATSAPP_PHONE_ROUTE, externalId: ids.phoneNumberId },
    { provider: WHATSAPP_ACCOUNT_ROUTE, externalId: ids.businessAccountId },
  ] as const

export type RouteKey = ReturnType<typeof routesOf>[number]

async function ownRoutes(tx: Tx, hospitalId: string) {
  return tx
    .select({ provider: messagingRoutes.provider, externalId: messagingRoutes.externalId })
    .from(messagingRoutes)
    .where(
      and(
        eq(messagingRoutes.hospitalId, hospitalId),
        inArray(messagingRoutes.provider, [WHATSAPP_PHONE_ROUTE, WHATSAPP_ACCOUNT_ROUTE]),
      ),
    )
}

/**
 * Before a save that touches WhatsApp: the Meta ids it would route, proven with Graph unless
 * they, the token and the app secret are unchanged and already this hospital's routes. A
 * refusal is a 400 on the field to fix (nothing is saved); Meta unreachable is a 502.
 */
export async function proveBeforeSave(opts: {
  db: AppDb
  hospitalId: string
  userId: string
  graph: GraphEndpoint
  input: ChannelInput | undefined
}): Promise<WhatsappProof | null> {
  const { input, hospitalId } = opts
  if (!input || input.provider !== 'meta') return null
  const state = await withTenant(opts.db, opts, async (tx) => {
    const row = await readConnectionRow(tx)
    const routes = await ownRoutes(tx, hospitalId)
    return {
      before: metaWhatsappOf(row, hospitalId),
      after: afterInput(row, hospitalId, input),
      routes,
    }
  })
  const { before, after } = state
  if (!after) return null
  const routed = routesOf(after).every((r) =>
    state.routes.some((o) => o.provider === r.provider && o.externalId === r.externalId),
  )
  if (before && sameIds(before, after) && routed) return { ids: after, fresh: false }
  const result = await proveWhatsappIds(opts.graph, after)
  if (result.ok) return { ids: after, fresh: true }
  if (!result.field) throw new AppError('UPSTREAM', result.message)
  const kind = result.field === 'phoneNumberId' || result.field === 'businessAccountId'
  const path = `whatsapp.${kind ? 'settings' : 'secrets'}.${result.field}`
  throw new AppError('BAD_REQUEST', result.message, [{ path, message: result.message }])
}

export const WHATSAPP_CHANGED_MESSAGE =
  'The WhatsApp settings changed while they were being checked with Meta. Save them again.'

/**
 * In the save's transaction (the connection row locked): the hospital's WhatsApp routes follow
 * what was saved. Not complete Meta: every route goes. Unchanged: the verify token's digest is
 * kept current. Proven: the ids are routed here; those another hospital holds are returned,
 * to be taken over once this transaction commits (takeOver).
 */
export async function routeWhatsappIds(
  tx: Tx,
  saved: ConnectionRow,
  proof: WhatsappProof | null,
  touched: boolean,
  audit: { userId: string; impersonatorUserId?: string | null | undefined },
): Promise<{ elsewhere: RouteKey[]; dropped: string[] }> {
  const { hospitalId } = saved
  const ids = metaWhatsappOf(saved, hospitalId)
  const own = await ownRoutes(tx, hospitalId)
  const mine = and(
    eq(messagingRoutes.hospitalId, hospitalId),
    inArray(messagingRoutes.provider, [WHATSAPP_PHONE_ROUTE, WHATSAPP_ACCOUNT_ROUTE]),
  )
  if (!ids) {
    await tx.delete(messagingRoutes).where(mine)
    return { elsewhere: [], dropped: own.map((r) => r.externalId) }
  }
  if (!touched) return { elsewhere: [], dropped: [] }
  if (!proof || !sameIds(proof.ids, ids)) throw new AppError('CONFLICT', WHATSAPP_CHANGED_MESSAGE)
  const wanted = routesOf(ids)
  const stale = own.filter(
    (o) => !wanted.some((w) => w.provider === o.provider && w.externalId === o.externalId),
  )
  for (const s of stale) {
    await tx
      .delete(messagingRoutes)
      .where(
        and(
          mine,
          eq(messagingRoutes.provider, s.provider),
          eq(messagingRoutes.externalId, s.externalId),
        ),
      )
  }
  const digest = ids.verifyToken ? verifyTokenDigest(ids.verifyToken) : null
  const elsewhere: RouteKey[] = []
  for (const route of wanted) {
    const columns = {
      verifyTokenSha256: route.provider === WHATSAPP_PHONE_ROUTE ? digest : null,
      updatedAt: new Date(),
      ...(proof.fresh ? { lastProvenAt: sql`now()` } : {}),
    }
    // Unchanged and already routed: only the verify token's digest follows the save. A route
    // lost meanwhile comes back only through a fresh proof (the next save proves again).
    const [inserted] = proof.fresh
      ? await tx
          .insert(messagingRoutes)
          .values({ ...route, hospitalId, ...columns })
          .onConflictDoNothing()
          .returning({ id: messagingRoutes.externalId })
      : []
    // Not inserted: the row is this hospital's (visible under RLS) or another hospital's.
    const kept = inserted
      ? []
      : await tx
          .update(messagingRoutes)
          .set(columns)
          .where(
            and(
              mine,
              eq(messagingRoutes.provider, route.provider),
              eq(messagingRoutes.externalId, route.externalId),
            ),
          )
          .returning({ id: messagingRoutes.externalId })
    if (!inserted && !kept.length) {
      if (proof.fresh) elsewhere.push(route)
      continue
    }
    if (inserted) {
      await recordAudit(tx, {
        hospitalId,
        actorUserId: audit.userId,
        impersonatorUserId: audit.impersonatorUserId,
        action: 'whatsapp.id_verified',
        entityType: 'messaging_connection',
        entityId: null,
        summary: `WhatsApp ${labelOf(route)} ${route.externalId} verified with Meta: its webhook deliveries now reach this hospital`,
      })
    }
  }
  return { elsewhere, dropped: stale.map((s) => s.externalId) }
}

export const labelOf = (route: { provider: string }) =>
  route.provider === WHATSAPP_PHONE_ROUTE ? 'phone number ID' : 'Business Account ID'
