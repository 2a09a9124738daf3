import { and, eq, isNotNull, ne, sql } from 'drizzle-orm'
import { metaWebhookMessages } from '../../../shared/schemas/meta'
import type { AppDb, Tx } from '../../db/client'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { metaConnections, metaPages } from '../../db/schema/meta'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import type { Mailer, MailMessage } from '../../integrations/email/mailer'
import { verifyTokenDigest } from '../../integrations/meta/signature'
import { recordAudit } from '../audit/audit.service'
import { lockConnection, type MemberOptions, type MetaConnection } from './connection.service'
import { forgetPageRoutes } from './route-cache'
import { isUniqueViolation } from '../../db/sql-error'

/**
 * Page claims (docs/decisions/021): a page is routed to the hospital whose token last proved
 * it. Test Connection claims a free page, re-proves the hospital's own claim, or takes the page
 * over from another hospital; the other hospital's route goes, its Settings say why, its admins
 * get an email, and both hospitals get an audit row. A claim lapses when Meta refuses the
 * hospital's token or secret (recordGraphOutcome), and the super admin may release one.
 */

export interface ClaimDeps {
  db: AppDb
  /** Tells the other hospital's admins when their page is taken over (none: no email). */
  mailer?: Mailer | undefined
}

/** What Test Connection proved: the saved page, token and app secret Graph accepted. */
export interface ProvenCredentials {
  pageId: string
  pageAccessToken: string
  appSecret: string
}

export type ClaimOutcome = 'claimed' | 'reproved' | 'taken_over' | 'changed'

const sameAsProven = (c: MetaConnection, proven: ProvenCredentials) =>
  c.pageId === proven.pageId &&
  c.pageAccessToken === proven.pageAccessToken &&
  c.appSecret === proven.appSecret

/** The columns a fresh proof sets on the claim row. */
function freshProof(c: MetaConnection) {
  return {
    verifyTokenSha256: c.verifyToken ? verifyTokenDigest(c.verifyToken) : null,
    lastProvenAt: sql`now()`,
    signatureFailures: 0,
    signatureFailingSince: null,
    updatedAt: new Date(),
  }
}

async function clearWebhookError(tx: Tx, hospitalId: string): Promise<void> {
  await tx
    .update(metaConnections)
    .set({ webhookError: null })
    .where(and(eq(metaConnections.hospitalId, hospitalId), isNotNull(metaConnections.webhookError)))
}

/**
 * Routes the page's webhook deliveries to the hospital after Graph accepted the saved token as
 * the page's own with a valid appsecret_proof. Nothing is claimed if the connection changed
 * since it was read (a save in between); a takeover re-checks that after moving the claim and
 * gives the route up again if so.
 */
export async function claimPageRoute(
  deps: ClaimDeps,
  opts: MemberOptions,
  proven: ProvenCredentials,
): Promise<ClaimOutcome> {
  const { db } = deps
  const { hospitalId } = opts
  const { pageId } = proven
  const first = await withTenant(db, opts, async (tx) => {
    const c = await lockConnection(tx, hospitalId)
    if (!sameAsProven(c, proven)) return { outcome: 'changed' as const }
    await tx
      .delete(metaPages)
      .where(and(eq(metaPages.hospitalId, hospitalId), ne(metaPages.pageId, pageId)))
    const fresh = freshProof(c)
    const [inserted] = await tx
      .insert(metaPages)
      .values({ pageId, hospitalId, claimedAt: sql`now()`, ...fresh })
      .onConflictDoNothing({ target: metaPages.pageId })
      .returning({ pageId: metaPages.pageId })
    // Not inserted: the row is this hospital's (visible under RLS) or another hospital's.
    const kept = inserted
      ? []
      : await tx
          .update(metaPages)
          .set(fresh)
          .where(eq(metaPages.pageId, pageId))
          .returning({ pageId: metaPages.pageId })
    if (!inserted && kept.length === 0) return { outcome: 'elsewhere' as const, fresh }
    await clearWebhookError(tx, hospitalId)
    if (inserted) {
      await recordAudit(tx, {
        hospitalId,
        actorUserId: opts.userId,
        impersonatorUserId: opts.impersonatorUserId,
        action: 'meta.page_verified',
        entityType: 'meta_connection',
        entityId: null,
        summary: `Meta page ${pageId} verified: its webhook deliveries now reach this hospital`,
      })
    }
    return { outcome: inserted ? ('claimed' as const) : ('reproved' as const) }
  })
  if (first.outcome !== 'elsewhere') {
    forgetPageRoutes(db, [pageId])
    return first.outcome
  }

  // Held by another hospital: the fresh proof takes it over (moveClaim).
  const previous = await moveClaim(db, { pageId, hospitalId, ...first.fresh })
  forgetPageRoutes(db, [pageId])
  const confirmed = await withTenant(db, opts, async (tx) => {
    const c = await lockConnection(tx, hospitalId)
    if (!sameAsProven(c, proven)) {
      await tx.delete(metaPages).where(eq(metaPages.hospitalId, hospitalId))
      return false
    }
    await clearWebhookError(tx, hospitalId)
    await recordAudit(tx, {
      hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'meta.page_taken_over',
      entityType: 'meta_connection',
      entityId: null,
      summary: `Meta page ${pageId} verified and taken over from another hospital that had claimed it: its webhook deliveries now reach this hospital`,
    })
    return true
  })
  if (previous && previous !== hospitalId) await tellFormerHolder(deps, previous, pageId)
  if (!confirmed) return 'changed'
  return previous === hospitalId ? 'reproved' : 'taken_over'
}

/**
 * Gives the page's claim row to the new hospital in one platform transaction (the holder's row
 * is invisible to the new hospital's app_user) and returns the former holder. A claim inserted
 * meanwhile by another request makes the insert fail on the key; the move is then tried again,
 * so the hospital it displaces is told too.
 */
async function moveClaim(
  db: AppDb,
  row: ReturnType<typeof freshProof> & { pageId: string; hospitalId: string },
): Promise<string | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withPlatform(db, async (tx) => {
        const [removed] = await tx
          .delete(metaPages)
          .where(eq(metaPages.pageId, row.pageId))
          .returning({ hospitalId: metaPages.hospitalId })
        await tx.insert(metaPages).values({ ...row, claimedAt: sql`now()` })
        return removed?.hospitalId ?? null
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      if (attempt >= 3) {
        throw new AppError(
          'CONFLICT',
          'This Facebook page is being connected by another request. Run Test Connection again.',
        )
      }
    }
  }
}

/** The former holder: Settings says why, an audit row, and an email to each active admin. */
async function tellFormerHolder(deps: ClaimDeps, hospitalId: string, pageId: string) {
  await withTenant(deps.db, { hospitalId, userId: null }, async (tx) => {
    await tx
      .update(metaConnections)
      .set({ webhookError: metaWebhookMessages.takenOver, updatedAt: new Date() })
      .where(eq(metaConnections.hospitalId, hospitalId))
    await recordAudit(tx, {
      hospitalId,
      actorUserId: null,
      action: 'meta.page_lost',
      entityType: 'meta_connection',
      entityId: null,
      summary: `Meta page ${pageId} was connected to another hospital, which proved a valid page access token for it: its webhook deliveries no longer reach this hospital`,
    })
  })
  if (!deps.mailer) return
  const admins = await withPlatform(deps.db, (tx) =>
    tx
      .select({ email: user.email, hospitalName: hospitals.name })
      .from(user)
      .innerJoin(hospitals, eq(hospitals.id, user.hospitalId))
      .where(
        and(
          eq(user.hospitalId, hospitalId),
          eq(user.role, 'admin'),
          eq(user.isActive, true),
          eq(user.banned, false),
        ),
      ),
  )
  for (const admin of admins) {
    await deps.mailer.send(pageTakenOverEmail(admin.email, admin.hospitalName, pageId))
  }
}

/** The email to a hospital's admins when another hospital took its Facebook page over. */
export function pageTakenOverEmail(to: string, hospitalName: string, pageId: string): MailMessage {
  return {
    to,
    purpose: 'meta-page-taken-over',
    subject: 'Your Facebook page was connected to another hospital',
    text: [
      `Facebook page ${pageId} was connected to another hospital in Arogya CRM. Whoever did it proved that they hold a valid page access token for the page.`,
      '',
      `New leads from its lead forms no longer reach ${hospitalName} by webhook.`,
      '',
      'If you did not expect this: in Meta Business Settings, remove the people, partners and apps you do not recognise from the page (this revokes their tokens), then open Settings → Integrations in Arogya CRM and run Test Connection to connect the page again.',
    ].join('\n'),
  }
}
