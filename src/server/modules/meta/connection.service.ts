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

export function toView(c: MetaConnection): MetaConnectionView {
  return {
    pageId: c.pageId,
    pageAccessToken: secretHint(c.pageAccessToken),
    appSecret: secretHint(c.appSecret),
    verifyToken: secretHint(c.verifyToken),
    status: c.status,
    lastError: c.lastError,
    lastSyncAt: c.lastSyncAt?.toISOString() ?? null,
  }
}

export interface MemberOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

export async function getConnectionView(opts: MemberOptions): Promise<MetaConnectionView> {
  return toView(await withTenant(opts.db, opts, (tx) => readConnection(tx, opts.hospitalId)))
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
 * PUT /api/integrations/meta. A field left out stays as it is; '' or null clears it. The page
 * routing row (meta_pages, a platform table) changes in the same transaction, and a page
 * another hospital has connected is refused (409): one hospital per page.
 */
export async function saveConnection(
  opts: MemberOptions & { values: SaveMetaConnectionInput },
): Promise<MetaConnectionView> {
  const { values, hospitalId } = opts
  const saved = await withTenant(opts.db, opts, async (tx) => {
    const [row] = await tx.select().from(metaConnections).for('update')
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
    await syncPageRoute(tx, connection)
    await recordAudit(tx, {
      hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'meta.connection_saved',
      entityType: 'meta_connection',
      entityId: null,
      summary: `Meta connection saved (${Object.keys(next).map(label).join(', ') || 'no changes'})`,
    })
    return connection
  })
  return toView(saved)
}

function label(column: string): string {
  return column.replace(/Enc$/, '').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)
}

/** meta_pages follows the connection: this hospital's row only (row-level security). */
async function syncPageRoute(tx: Tx, c: MetaConnection): Promise<void> {
  await tx.delete(metaPages).where(eq(metaPages.hospitalId, c.hospitalId))
  if (!c.pageId) return
  const [claimed] = await tx
    .insert(metaPages)
    .values({
      pageId: c.pageId,
      hospitalId: c.hospitalId,
      verifyTokenSha256: c.verifyToken ? verifyTokenDigest(c.verifyToken) : null,
    })
    .onConflictDoNothing({ target: metaPages.pageId })
    .returning({ pageId: metaPages.pageId })
  if (!claimed) {
    throw new AppError('CONFLICT', 'This Facebook page is connected to another hospital.')
  }
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
