import { and, eq, sql } from 'drizzle-orm'
import {
  metaMissingMessages,
  type MetaConnectionView,
  metaWebhookMessages,
  type SaveMetaConnectionInput,
} from '../../../shared/schemas/meta'
import type { AppDb, Tx } from '../../db/client'
import { metaConnections, metaPages } from '../../db/schema/meta'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { verifyTokenDigest } from '../../integrations/meta/signature'
import { decryptSecret, encryptSecret, secretHint } from '../../secrets/secrets'
import { recordAudit } from '../audit/audit.service'
import { forgetPageRoutes } from './route-cache'

type SecretField = 'pageAccessToken' | 'appSecret' | 'verifyToken'
type ConnectionRow = typeof metaConnections.$inferSelect

const columnOf = {
  pageAccessToken: 'pageAccessTokenEnc',
  appSecret: 'appSecretEnc',
  verifyToken: 'verifyTokenEnc',
} as const satisfies Record<SecretField, keyof ConnectionRow>

/** Binds each ciphertext to its hospital and field: it cannot be moved to another. */
const contextOf = (hospitalId: string, field: SecretField) => `meta:${hospitalId}:${field}`

export interface MetaConnection {
  hospitalId: string
  pageId: string | null
  pageAccessToken: string | null
  appSecret: string | null
  verifyToken: string | null
  status: ConnectionRow['status']
  lastError: string | null
  lastSyncAt: Date | null
  webhookError: string | null
}

function decrypted(row: ConnectionRow | undefined, hospitalId: string): MetaConnection {
  const open = (field: SecretField) => {
    const stored = row?.[columnOf[field]]
    return stored ? decryptSecret(stored, contextOf(hospitalId, field)) : null
  }
  return {
    hospitalId,
    pageId: row?.pageId ?? null,
    pageAccessToken: open('pageAccessToken'),
    appSecret: open('appSecret'),
    verifyToken: open('verifyToken'),
    status: row?.status ?? 'ok',
    lastError: row?.lastError ?? null,
    lastSyncAt: row?.lastSyncAt ?? null,
    webhookError: row?.webhookError ?? null,
  }
}

/** The hospital's connection with its secrets decrypted, inside its tenant transaction. */
export async function readConnection(tx: Tx, hospitalId: string): Promise<MetaConnection> {
  const [row] = await tx.select().from(metaConnections)
  return decrypted(row, hospitalId)
}

/** Deliveries failing the signature check in a row before Settings says so. */
export const SIGNATURE_FAILURES_FOR_ATTENTION = 5

/** The hospital's own route, if its page is routed to it (meta_pages under RLS). */
export interface OwnRoute {
  pageId: string
  signatureFailures: number
}

/** The same, with the row locked until the transaction ends (a save waits for a claim). */
export async function lockConnection(tx: Tx, hospitalId: string): Promise<MetaConnection> {
  const [row] = await tx.select().from(metaConnections).for('update')
  return decrypted(row, hospitalId)
}

export function toView(c: MetaConnection, route: OwnRoute | null): MetaConnectionView {
  const webhookError =
    c.webhookError ??
    (route && route.signatureFailures >= SIGNATURE_FAILURES_FOR_ATTENTION
      ? metaWebhookMessages.signatureFailing
      : null)
  return {
    pageId: c.pageId,
    pageAccessToken: secretHint(c.pageAccessToken),
    appSecret: secretHint(c.appSecret),
    verifyToken: secretHint(c.verifyToken),
    status: c.status === 'needs_attention' || webhookError ? 'needs_attention' : 'ok',
    lastError: c.lastError,
    webhookError,
    lastSyncAt: c.lastSyncAt?.toISOString() ?? null,
    webhookReady: route !== null,
  }
}

/** The hospital's route (its own meta_pages row, under RLS), or null. */
export async function ownRoute(tx: Tx, hospitalId: string): Promise<OwnRoute | null> {
  const [row] = await tx
    .select({ pageId: metaPages.pageId, signatureFailures: metaPages.signatureFailures })
    .from(metaPages)
    .where(eq(metaPages.hospitalId, hospitalId))
  return row ?? null
}

export interface MemberOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

export async function getConnectionView(opts: MemberOptions): Promise<MetaConnectionView> {
  return withTenant(opts.db, opts, async (tx) =>
    toView(await readConnection(tx, opts.hospitalId), await ownRoute(tx, opts.hospitalId)),
  )
}

/** A connection ready for Graph calls: page id, token and app secret, or the spec's 400. */
export function requireConfigured(c: MetaConnection) {
  for (const field of ['pageId', 'pageAccessToken', 'appSecret'] as const) {
    if (!c[field]) throw new AppError('BAD_REQUEST', metaMissingMessages[field])
  }
  return {
    pageId: c.pageId as string,
    credentials: { pageAccessToken: c.pageAccessToken as string, appSecret: c.appSecret as string },
  }
}

/**
 * PUT /api/integrations/meta. A field left out stays as it is; '' or null clears it. Saving
 * routes no webhook: a page reaches this hospital only once Test Connection has proved the
 * token is the page's own and the app secret its app's (claimPageRoute). Another page ID, token
 * or app secret withdraws the route in the same transaction; a new verify token updates the
 * route's handshake digest.
 */
export async function saveConnection(
  opts: MemberOptions & { values: SaveMetaConnectionInput },
): Promise<MetaConnectionView> {
  const { values, hospitalId } = opts
  const saved = await withTenant(opts.db, opts, async (tx) => {
    const [row] = await tx.select().from(metaConnections).for('update')
    const before = decrypted(row, hospitalId)
    const next: Partial<ConnectionRow> = {}
    if (values.pageId !== undefined) next.pageId = values.pageId || null
    for (const field of ['pageAccessToken', 'appSecret', 'verifyToken'] as const) {
      const value = values[field]
      if (value === undefined) continue
      next[columnOf[field]] = value ? encryptSecret(value, contextOf(hospitalId, field)) : null
    }
    // New credentials or another page: whatever Meta said about the old ones no longer holds.
    const credentialsChanged =
      next.pageId !== undefined ||
      next.pageAccessTokenEnc !== undefined ||
      next.appSecretEnc !== undefined
    const changes = {
      ...next,
      ...(credentialsChanged ? { status: 'ok' as const, lastError: null, webhookError: null } : {}),
      ...(next.pageId !== undefined && next.pageId !== (row?.pageId ?? null)
        ? { lastSyncAt: null }
        : {}),
      updatedAt: new Date(),
    }
    const [stored] = await tx
      .insert(metaConnections)
      .values({ hospitalId, ...changes })
      .onConflictDoUpdate({ target: metaConnections.hospitalId, set: changes })
      .returning()
    const connection = decrypted(stored, hospitalId)
    const unproven =
      connection.pageId !== before.pageId ||
      connection.pageAccessToken !== before.pageAccessToken ||
      connection.appSecret !== before.appSecret
    await updatePageRoute(tx, connection, unproven)
    await recordAudit(tx, {
      hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'meta.connection_saved',
      entityType: 'meta_connection',
      entityId: null,
      summary: `Meta connection saved (${Object.keys(next).map(label).join(', ') || 'no changes'})`,
    })
    return { connection, route: await ownRoute(tx, hospitalId), before: before.pageId }
  })
  // This instance stops using a withdrawn route or an old app secret at once (others within
  // PAGE_ROUTE_TTL_MS).
  if (saved.before) forgetPageRoutes(opts.db, [saved.before])
  return toView(saved.connection, saved.route)
}

function label(column: string): string {
  return column.replace(/Enc$/, '').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)
}

/**
 * After a save: withdraws the hospital's route when its page, token or app secret changed (or
 * is gone), else keeps it with the current verify token's digest.
 */
async function updatePageRoute(tx: Tx, c: MetaConnection, unproven: boolean): Promise<void> {
  if (unproven || !c.pageId || !c.pageAccessToken || !c.appSecret) {
    await tx.delete(metaPages).where(eq(metaPages.hospitalId, c.hospitalId))
    return
  }
  await tx
    .update(metaPages)
    .set({
      verifyTokenSha256: c.verifyToken ? verifyTokenDigest(c.verifyToken) : null,
      updatedAt: new Date(),
    })
    .where(eq(metaPages.hospitalId, c.hospitalId))
}

/**
 * What a Graph call with the hospital's token showed: Meta refused the token (190) or our
 * appsecret_proof (`needsAttention`, with the message for Settings), the token belongs to
 * another page (`notThePage`), or it worked (`ok`).
 */
export type GraphOutcome =
  { needsAttention: string } | { notThePage: true } | { ok: true; syncedAt?: Date }

/**
 * After a Graph call with the hospital's token. A refusal marks the connection as needing
 * attention, and then, like a token of another page, lapses the hospital's claim on its page:
 * the token no longer proves it (docs/decisions/021). Success clears the mark and records when
 * the claim was last proven.
 */
export async function recordGraphOutcome(
  db: AppDb,
  hospitalId: string,
  outcome: GraphOutcome,
): Promise<void> {
  const lapsed = await withTenant(db, { hospitalId, userId: null }, async (tx) => {
    if ('notThePage' in outcome) return lapseClaim(tx, hospitalId)
    const set =
      'needsAttention' in outcome
        ? { status: 'needs_attention' as const, lastError: outcome.needsAttention }
        : {
            status: 'ok' as const,
            lastError: null,
            ...(outcome.syncedAt ? { lastSyncAt: outcome.syncedAt } : {}),
          }
    const [row] = await tx
      .update(metaConnections)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(metaConnections.hospitalId, hospitalId))
      .returning({ pageId: metaConnections.pageId })
    if ('needsAttention' in outcome) return lapseClaim(tx, hospitalId)
    if (row?.pageId) await touchProven(tx, hospitalId, row.pageId)
    return []
  })
  forgetPageRoutes(db, lapsed)
}

/** The hospital's claim ends (its route goes), with an audit row when there was one. */
async function lapseClaim(tx: Tx, hospitalId: string): Promise<string[]> {
  const lapsed = await tx
    .delete(metaPages)
    .where(eq(metaPages.hospitalId, hospitalId))
    .returning({ pageId: metaPages.pageId })
  for (const { pageId } of lapsed) {
    await recordAudit(tx, {
      hospitalId,
      actorUserId: null,
      action: 'meta.page_claim_lapsed',
      entityType: 'meta_connection',
      entityId: null,
      summary: `The saved page access token or app secret no longer proves Meta page ${pageId}: the claim lapsed, and its webhook deliveries are refused until Test Connection succeeds again`,
    })
  }
  return lapsed.map((r) => r.pageId)
}

/** Records that the hospital's token proved its page just now (cheap when done recently). */
export async function touchProven(tx: Tx, hospitalId: string, pageId: string): Promise<void> {
  await tx
    .update(metaPages)
    .set({ lastProvenAt: sql`now()` })
    .where(
      and(
        eq(metaPages.hospitalId, hospitalId),
        eq(metaPages.pageId, pageId),
        sql`${metaPages.lastProvenAt} < now() - interval '1 minute'`,
      ),
    )
}
