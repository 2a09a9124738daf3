import { and, desc, eq } from 'drizzle-orm'
import {
  canMoveLeadGen,
  LEAD_GEN_BUDGET_SCALE,
  type LeadGenStatus,
  leadGenStatusLabels,
} from '../../../shared/lead-generation'
import type {
  AdminLeadGenRequest,
  AdminLeadGenRequestList,
} from '../../../shared/schemas/lead-generation'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { leadGenerationRequests } from '../../db/schema/lead-generation'
import { withPlatform } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import type { Mailer, MailStatus } from '../../integrations/email/mailer'
import { recordPlatformAudit } from '../audit/platform-audit.service'
import { activeMemberOf, asPlatform, asTenant } from '../team/team-db'
import { type LeadGenRow, toLeadGenRequest } from './lead-generation-rows'

/** The most requests the platform list returns (newest first). */
const ADMIN_LIST_LIMIT = 500

/*
 * The platform side of lead-generation requests (docs/decisions/034). The table is a tenant
 * table under forced RLS with only the tenant policy, so the platform reads it hospital by
 * hospital inside one transaction (app_user with each hospital set in turn): RLS stays the
 * only gate, and no policy lets any role see every hospital at once.
 */

/** GET /api/admin/lead-generation-requests: every hospital's requests, optionally by status. */
export async function listAllLeadGenRequests(opts: {
  db: AppDb
  status?: LeadGenStatus | undefined
}): Promise<AdminLeadGenRequestList> {
  return withPlatform(opts.db, async (tx) => {
    const all = await tx.select({ id: hospitals.id, name: hospitals.name }).from(hospitals)
    const items: AdminLeadGenRequest[] = []
    for (const h of all) {
      await asTenant(tx, h.id)
      const rows = await tx
        .select()
        .from(leadGenerationRequests)
        .where(opts.status ? eq(leadGenerationRequests.status, opts.status) : undefined)
        .orderBy(desc(leadGenerationRequests.createdAt))
        .limit(ADMIN_LIST_LIMIT)
      for (const r of rows)
        items.push({ ...toLeadGenRequest(r), hospitalId: h.id, hospitalName: h.name })
    }
    await asPlatform(tx)
    items.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
    return { items: items.slice(0, ADMIN_LIST_LIMIT) }
  })
}

/**
 * POST /api/admin/lead-generation-requests/:id/status: requested → approved → active ⇄ paused →
 * completed (409 otherwise), with a note. The move, the platform audit row and the hospital's
 * own audit row commit together; after COMMIT each of the hospital's admins gets an email
 * (sandbox outbox without SMTP), as the team invitations do.
 */
export async function moveLeadGenRequest(opts: {
  db: AppDb
  mailer: Mailer
  userId: string
  id: string
  status: LeadGenStatus
  note: string | null
}): Promise<AdminLeadGenRequest & { emailStatus: MailStatus[] }> {
  const moved = await withPlatform(opts.db, async (tx) => {
    const all = await tx.select({ id: hospitals.id, name: hospitals.name }).from(hospitals)
    let found: { hospital: { id: string; name: string }; row: LeadGenRow } | undefined
    for (const h of all) {
      await asTenant(tx, h.id)
      const [row] = await tx
        .select()
        .from(leadGenerationRequests)
        .where(eq(leadGenerationRequests.id, opts.id))
        .for('update')
      if (row) {
        found = { hospital: h, row }
        break
      }
    }
    if (!found) throw notFound('Lead-generation request')
    const { hospital, row } = found
    const from = row.status as LeadGenStatus
    if (!canMoveLeadGen(from, opts.status))
      throw new AppError(
        'CONFLICT',
        `A ${leadGenStatusLabels[from].toLowerCase()} request cannot become ${leadGenStatusLabels[opts.status].toLowerCase()}`,
      )
    const now = new Date()
    const [updated] = await tx
      .update(leadGenerationRequests)
      .set({
        status: opts.status,
        statusNote: opts.note,
        statusChangedAt: now,
        statusChangedBy: opts.userId,
        updatedAt: now,
      })
      .where(
        and(
          eq(leadGenerationRequests.hospitalId, hospital.id),
          eq(leadGenerationRequests.id, opts.id),
        ),
      )
      .returning()
    if (!updated) throw notFound('Lead-generation request')
    await asPlatform(tx)
    const admins = await tx
      .select({ email: user.email, name: user.name })
      .from(user)
      .where(and(activeMemberOf(hospital.id), eq(user.role, 'admin')))
    const rupees = (row.dailyBudget / LEAD_GEN_BUDGET_SCALE).toLocaleString('en-IN')
    await recordPlatformAudit(tx, {
      actorUserId: opts.userId,
      hospitalId: hospital.id,
      action: 'lead_generation.status_changed',
      entityType: 'lead_generation_request',
      entityId: opts.id,
      summary: `${hospital.name}: lead-generation request (₹${rupees} a day) moved from ${from} to ${opts.status}${opts.note ? ` – ${opts.note}` : ''}`,
    })
    return { hospital, updated, admins, rupees }
  })
  const { hospital, updated, admins, rupees } = moved
  const label = leadGenStatusLabels[opts.status]
  const emailStatus: MailStatus[] = []
  for (const admin of admins)
    emailStatus.push(
      await opts.mailer.send({
        to: admin.email,
        purpose: 'lead-generation-status',
        subject: `Your lead-generation campaign request is now ${label.toLowerCase()}`,
        text: [
          `Hello ${admin.name},`,
          '',
          `The lead-generation campaign request of ${hospital.name} (daily budget ₹${rupees}) is now: ${label}.`,
          ...(opts.note ? ['', `Note from the Arogya team: ${opts.note}`] : []),
          '',
          'You can see your requests on the Lead Generation page.',
          '',
          '— The Arogya team',
        ].join('\n'),
      }),
    )
  return {
    ...toLeadGenRequest(updated),
    hospitalId: hospital.id,
    hospitalName: hospital.name,
    emailStatus,
  }
}
