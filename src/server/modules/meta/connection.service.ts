import { eq } from 'drizzle-orm'
import {
  metaMissingMessages,
  type MetaConnectionView,
  type SaveMetaConnectionInput,
} from '../../../shared/schemas/meta'
import type { AppDb, Tx } from '../../db/client'
import { metaConnections, metaPages } from '../../db/schema/meta'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { verifyTokenDigest } from '../../integrations/meta/signature'
import { decryptSecret, encryptSecret, secretHint } from '../../secrets/secrets'
import { recordAudit } from '../audit/audit.service'

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
  }
}

/** The hospital's connection with its secrets decrypted, inside its tenant transaction. */
export async function readConnection(tx: Tx, hospitalId: string): Promise<MetaConnection> {
  const [row] = await tx.select().from(metaConnections)
  return decrypted(row, hospitalId)
}

export function toView(c: MetaConnection, webhookReady: boolean): MetaConnectionView {
  return {
    pageId: c.pageId,
    pageAccessToken: secretHint(c.pageAccessToken),
    appSecret: secretHint(c.appSecret),
    verifyToken: secretHint(c.verifyToken),
    status: c.status,
    lastError: c.lastError,
    lastSyncAt: c.lastSyncAt?.toISOString() ?? null,
    webhookReady,
  }
}

/** Whether the hospital's page is routed to it (its own meta_pages row, under RLS). */
async function isRouted(tx: Tx, hospitalId: string): Promise<boolean> {
  const rows = await tx
    .select({ pageId: metaPages.pageId })
    .from(metaPages)
    .where(eq(metaPages.hospitalId, hospitalId))
  return rows.length > 0
}

export interface MemberOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

export async function getConnectionView(opts: MemberOptions): Promise<MetaConnectionView> {
  return withTenant(opts.db, opts, async (tx) =>
    toView(await readConnection(tx, opts.hospitalId), await isRouted(tx, opts.hospitalId)),
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
 * token is the page's own (claimPageRoute). Another page ID or token withdraws the route in the
 * same transaction; a new verify token updates the route's handshake digest.
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
      ...(credentialsChanged ? { status: 'ok' as const, lastError: null } : {}),
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
      connection.pageId !== before.pageId || connection.pageAccessToken !== before.pageAccessToken
    const routed = await updatePageRoute(tx, connection, unproven)
    await recordAudit(tx, {
      hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'meta.connection_saved',
      entityType: 'meta_connection',
      entityId: null,
      summary: `Meta connection saved (${Object.keys(next).map(label).join(', ') || 'no changes'})`,
    })
    return { connection, routed }
  })
  return toView(saved.connection, saved.routed)
}

function label(column: string): string {
  return column.replace(/Enc$/, '').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)
}

/**
 * After a save: withdraws the hospital's route when its page or token changed (or is gone),
 * else keeps it with the current verify token's digest. Returns whether a route remains.
 */
async function updatePageRoute(tx: Tx, c: MetaConnection, unproven: boolean): Promise<boolean> {
  if (unproven || !c.pageId || !c.pageAccessToken) {
    await tx.delete(metaPages).where(eq(metaPages.hospitalId, c.hospitalId))
    return false
  }
  const kept = await tx
    .update(metaPages)
    .set({
      verifyTokenSha256: c.verifyToken ? verifyTokenDigest(c.verifyToken) : null,
      updatedAt: new Date(),
    })
    .where(eq(metaPages.hospitalId, c.hospitalId))
    .returning({ pageId: metaPages.pageId })
  return kept.length > 0
}

/**
 * Routes the page's webhook deliveries to the hospital, after Graph has confirmed that the
 * saved token belongs to `tested.pageId` (Test Connection). Nothing happens if the connection
 * changed since it was read. One hospital per page: a page another hospital has proved first
 * is refused (409) and stays theirs.
 */
export async function claimPageRoute(
  opts: MemberOptions,
  tested: { pageId: string; pageAccessToken: string },
): Promise<void> {
  const { hospitalId } = opts
  await withTenant(opts.db, opts, async (tx) => {
    const [row] = await tx.select().from(metaConnections).for('update')
    const now = decrypted(row, hospitalId)
    if (now.pageId !== tested.pageId || now.pageAccessToken !== tested.pageAccessToken) return
    await tx.delete(metaPages).where(eq(metaPages.hospitalId, hospitalId))
    const [claimed] = await tx
      .insert(metaPages)
      .values({
        pageId: tested.pageId,
        hospitalId,
        verifyTokenSha256: now.verifyToken ? verifyTokenDigest(now.verifyToken) : null,
      })
      .onConflictDoNothing({ target: metaPages.pageId })
      .returning({ pageId: metaPages.pageId })
    if (!claimed) {
      throw new AppError('CONFLICT', 'This Facebook page is connected to another hospital.')
    }
    await recordAudit(tx, {
      hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'meta.page_verified',
      entityType: 'meta_connection',
      entityId: null,
      summary: `Meta page ${tested.pageId} verified: its webhook deliveries now reach this hospital`,
    })
  })
}

/** After a Graph call: 190 marks the connection as needing attention, success clears it. */
export async function recordGraphOutcome(
  db: AppDb,
  hospitalId: string,
  outcome: { needsAttention: string } | { ok: true; syncedAt?: Date },
): Promise<void> {
  await withTenant(db, { hospitalId, userId: null }, async (tx) => {
    const set =
      'needsAttention' in outcome
        ? { status: 'needs_attention' as const, lastError: outcome.needsAttention }
        : {
            status: 'ok' as const,
            lastError: null,
            ...(outcome.syncedAt ? { lastSyncAt: outcome.syncedAt } : {}),
          }
    await tx
      .update(metaConnections)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(metaConnections.hospitalId, hospitalId))
  })
}
