import { and, eq, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import {
  messagingConnections,
  messagingRoutes,
  WHATSAPP_PHONE_ROUTE,
} from '../../db/schema/messaging'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import type { Mailer, MailMessage } from '../../integrations/email/mailer'
import { verifyTokenDigest } from '../../integrations/meta/signature'
import { recordAudit } from '../audit/audit.service'
import { forgetWhatsappRoutes } from '../messaging-webhooks/meta-routing'
import { labelOf, metaWhatsappOf, type RouteKey, sameIds, type WhatsappProof } from './whatsapp-ids'
import { isUniqueViolation } from '../../db/sql-error'

/*
 * A proven WhatsApp id that another hospital held (issue 39): taken over after the save that
 * proved it commits, as Meta lead pages are (docs/decisions/021, meta/page-claims.ts).
 */

export interface TakeOverDeps {
  db: AppDb
  mailer?: Mailer | undefined
}

/**
 * After the save committed: the proven ids another hospital held move to this hospital (one
 * platform transaction each: the other hospital's row is invisible to this one's app_user).
 * Then, under the connection's row lock, the save must still be what was proven (a save in
 * between gives the ids up again). The former holder gets an audit row and its admins an email.
 */
export async function takeOver(
  deps: TakeOverDeps,
  opts: { hospitalId: string; userId: string; impersonatorUserId?: string | null | undefined },
  proof: WhatsappProof,
  routes: RouteKey[],
): Promise<void> {
  const { db } = deps
  const { hospitalId } = opts
  const digest = proof.ids.verifyToken ? verifyTokenDigest(proof.ids.verifyToken) : null
  const previous: { route: RouteKey; hospitalId: string }[] = []
  for (const route of routes) {
    const former = await moveRoute(db, {
      ...route,
      hospitalId,
      verifyTokenSha256: route.provider === WHATSAPP_PHONE_ROUTE ? digest : null,
    })
    if (former && former !== hospitalId) previous.push({ route, hospitalId: former })
  }
  forgetWhatsappRoutes(
    db,
    routes.map((r) => r.externalId),
  )
  await withTenant(db, opts, async (tx) => {
    const [row] = await tx.select().from(messagingConnections).for('update')
    const now = metaWhatsappOf(row, hospitalId)
    if (!now || !sameIds(now, proof.ids)) {
      for (const route of routes) {
        await tx
          .delete(messagingRoutes)
          .where(
            and(
              eq(messagingRoutes.provider, route.provider),
              eq(messagingRoutes.externalId, route.externalId),
            ),
          )
      }
      return
    }
    for (const route of routes) {
      await recordAudit(tx, {
        hospitalId,
        actorUserId: opts.userId,
        impersonatorUserId: opts.impersonatorUserId,
        action: 'whatsapp.id_taken_over',
        entityType: 'messaging_connection',
        entityId: null,
        summary: `WhatsApp ${labelOf(route)} ${route.externalId} verified with Meta and taken over from another hospital that had connected it: its webhook deliveries now reach this hospital`,
      })
    }
  })
  forgetWhatsappRoutes(
    db,
    routes.map((r) => r.externalId),
  )
  for (const p of previous) await tellFormerHolder(deps, p.hospitalId, p.route)
}

/** Moves the route row to the new hospital and returns the former holder (retried on a race). */
async function moveRoute(
  db: AppDb,
  row: RouteKey & { hospitalId: string; verifyTokenSha256: string | null },
): Promise<string | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withPlatform(db, async (tx) => {
        const [removed] = await tx
          .delete(messagingRoutes)
          .where(
            and(
              eq(messagingRoutes.provider, row.provider),
              eq(messagingRoutes.externalId, row.externalId),
            ),
          )
          .returning({ hospitalId: messagingRoutes.hospitalId })
        await tx.insert(messagingRoutes).values({ ...row, lastProvenAt: sql`now()` })
        return removed?.hospitalId ?? null
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      if (attempt >= 3) {
        throw new AppError(
          'CONFLICT',
          'This WhatsApp number is being connected by another request. Save the settings again.',
        )
      }
    }
  }
}

/** The former holder: an audit row in its trail and an email to each active admin. */
async function tellFormerHolder(deps: TakeOverDeps, hospitalId: string, route: RouteKey) {
  await withTenant(deps.db, { hospitalId, userId: null }, (tx) =>
    recordAudit(tx, {
      hospitalId,
      actorUserId: null,
      action: 'whatsapp.id_lost',
      entityType: 'messaging_connection',
      entityId: null,
      summary: `WhatsApp ${labelOf(route)} ${route.externalId} was connected to another hospital, whose access token Meta accepted for it: its webhook deliveries no longer reach this hospital`,
    }),
  )
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
    await deps.mailer.send(whatsappTakenOverEmail(admin.email, admin.hospitalName, route))
  }
}

/** The email to a hospital's admins when another hospital proved one of its WhatsApp ids. */
export function whatsappTakenOverEmail(
  to: string,
  hospitalName: string,
  route: RouteKey,
): MailMessage {
  const what = labelOf(route)
  return {
    to,
    purpose: 'whatsapp-id-taken-over',
    subject: 'Your WhatsApp number was connected to another hospital',
    text: [
      `WhatsApp ${what} ${route.externalId} was connected to another hospital in Arogya CRM. Meta accepted that hospital's access token for it.`,
      '',
      route.provider === WHATSAPP_PHONE_ROUTE
        ? `Delivery updates and replies for this number no longer reach ${hospitalName}.`
        : `Template approval updates for this account no longer reach ${hospitalName}.`,
      '',
      'If you did not expect this: in Meta Business Settings, remove the people, partners and system users you do not recognise from the WhatsApp Business Account (this revokes their tokens), then open Settings → Integrations in Arogya CRM and save the WhatsApp settings again to connect it back.',
    ].join('\n'),
  }
}
