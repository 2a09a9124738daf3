import { sql } from 'drizzle-orm'
import type { RingGroup } from '../../../shared/schemas/calls-incoming'
import type { AppDb } from '../../db/client'
import { voiceSettings } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { staffOf } from './incoming.service'
import { resolveRingGroup, verifiedPhones } from './ring-group'

/**
 * GET/PUT /api/calls/ring-group (issue 41): who incoming calls ring. PUT takes the staff in
 * order (hospital:manage; each an active member of the hospital, else 400 on userIds); an
 * empty list restores the default (ring-group.ts).
 */

interface Member {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

export async function getRingGroup(opts: Member): Promise<RingGroup> {
  const staff = await staffOf(opts.db, opts.hospitalId)
  return withTenant(opts.db, opts, async (tx) => {
    const [row] = await tx.select({ ringGroup: voiceSettings.ringGroup }).from(voiceSettings)
    const configured = row?.ringGroup ?? []
    const ring = resolveRingGroup(staff, configured, await verifiedPhones(tx))
    return {
      configured,
      members: ring.members.map((m) => ({
        userId: m.userId,
        name: m.name,
        role: m.role,
        phoneVerified: m.phone !== null,
      })),
    }
  })
}

export async function setRingGroup(opts: Member & { userIds: string[] }): Promise<RingGroup> {
  const staff = new Set((await staffOf(opts.db, opts.hospitalId)).map((s) => s.id))
  const userIds = [...new Set(opts.userIds)]
  const unknown = userIds.filter((id) => !staff.has(id))
  if (unknown.length) {
    throw new AppError('VALIDATION', 'Choose active staff of this hospital', [
      { path: 'userIds', message: 'Choose active staff of this hospital' },
    ])
  }
  await withTenant(opts.db, opts, async (tx) => {
    await tx
      .insert(voiceSettings)
      .values({ hospitalId: opts.hospitalId, ringGroup: userIds })
      .onConflictDoUpdate({
        target: voiceSettings.hospitalId,
        set: { ringGroup: userIds, updatedAt: sql`now()` },
      })
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId ?? null,
      action: 'voice.ring_group',
      entityType: 'hospital',
      entityId: opts.hospitalId,
      summary: userIds.length
        ? `Set the incoming-call ring group to ${userIds.length} staff`
        : 'Reset the incoming-call ring group to the default',
    })
  })
  return getRingGroup(opts)
}
