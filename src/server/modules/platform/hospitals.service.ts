import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import { plans } from '../../../shared/plans'
import {
  canMoveTo,
  type CreatedHospital,
  type createHospitalInput,
  type HospitalDetail,
  type HospitalList,
  subscriptionStatusLabels,
  type SubscriptionStatus,
  type updateHospitalInput,
} from '../../../shared/schemas/platform'
import { formatMoney } from '../../../shared/money'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordPlatformAudit } from '../audit/platform-audit.service'
import { assertDeliversLinks, type Mailer } from '../../integrations/email/mailer'
import { createPatientNumberCounter } from '../patients/patient-numbers'
import { createInvitation } from '../team/invitations.service'
import { cardColumns, containsPattern, detailColumns, toCard, toDetail } from './hospital-rows'

const DAY_MS = 24 * 3600 * 1000

/** GET /api/admin/hospitals: newest first, searched by name or email, filtered by status. */
export async function listHospitals(opts: {
  db: AppDb
  q?: string | undefined
  status?: SubscriptionStatus | 'all' | undefined
  limit: number
  offset: number
}): Promise<HospitalList> {
  const filters: SQL[] = []
  if (opts.q) {
    const pattern = containsPattern(opts.q)
    const match = or(ilike(hospitals.name, pattern), ilike(hospitals.email, pattern))
    if (match) filters.push(match)
  }
  if (opts.status && opts.status !== 'all')
    filters.push(eq(hospitals.subscriptionStatus, opts.status))
  const where = filters.length ? and(...filters) : undefined
  return withPlatform(opts.db, async (tx) => {
    const rows = await tx
      .select(cardColumns)
      .from(hospitals)
      .where(where)
      .orderBy(desc(hospitals.createdAt), desc(hospitals.id))
      .limit(opts.limit)
      .offset(opts.offset)
    const [total] = await tx.select({ n: count() }).from(hospitals).where(where)
    return { items: rows.map(toCard), total: total?.n ?? 0 }
  })
}

export async function getHospital(opts: { db: AppDb; id: string }): Promise<HospitalDetail> {
  const [row] = await withPlatform(opts.db, (tx) =>
    tx.select(detailColumns).from(hospitals).where(eq(hospitals.id, opts.id)),
  )
  if (!row) throw notFound('Hospital')
  return toDetail(row)
}

/**
 * POST /api/admin/hospitals: the hospital starts its plan's free trial; a trigger gives it its
 * six onboarding tasks; its first admin is invited by email (the team module's invitation,
 * through the mailer's outbox). An admin email that already has an account is refused first.
 */
export async function createHospital(opts: {
  db: AppDb
  mailer: Mailer
  publicUrl: string
  userId: string
  input: z.output<typeof createHospitalInput>
  now?: Date
}): Promise<CreatedHospital> {
  const { input } = opts
  assertDeliversLinks(opts.mailer) // its first admin's invitation could not be sent (409)
  const adminEmail = input.adminEmail ?? input.email
  const now = opts.now ?? new Date()
  const trialDays = plans.find((p) => p.id === input.plan)?.trialDays ?? null
  const id = await withPlatform(opts.db, async (tx) => {
    const [taken] = await tx
      .select({ id: hospitals.id })
      .from(hospitals)
      .where(eq(hospitals.email, input.email))
    if (taken) throw new AppError('CONFLICT', 'A hospital with this email already exists')
    const [account] = await tx.select({ id: user.id }).from(user).where(eq(user.email, adminEmail))
    if (account)
      throw new AppError('CONFLICT', ADMIN_TAKEN_MESSAGE, [
        { path: input.adminEmail ? 'adminEmail' : 'email', message: ADMIN_TAKEN_MESSAGE },
      ])
    const [row] = await tx
      .insert(hospitals)
      .values({
        ...input,
        adminEmail,
        subscriptionStatus: trialDays ? 'trial' : 'active',
        trialEndsAt: trialDays ? startOfUtcDay(new Date(now.getTime() + trialDays * DAY_MS)) : null,
      })
      .returning({ id: hospitals.id })
    if (!row) throw new Error('platform: hospital not created')
    await recordPlatformAudit(tx, {
      actorUserId: opts.userId,
      hospitalId: row.id,
      action: 'hospital.created',
      entityType: 'hospital',
      entityId: row.id,
      summary: `Added ${input.name} (${input.email}) on the ${input.plan} plan, ${input.maxUsers} users at ${formatMoney(input.pricePerUser)} per user`,
    })
    return row.id
  })
  await createPatientNumberCounter({ db: opts.db, hospitalId: id, hospitalName: input.name })
  const sent = await createInvitation({
    db: opts.db,
    mailer: opts.mailer,
    publicUrl: opts.publicUrl,
    hospitalId: id,
    invitedByUserId: opts.userId,
    email: adminEmail,
    name: input.adminName ?? 'Hospital Admin',
    role: 'admin',
  })
  return {
    ...(await getHospital({ db: opts.db, id })),
    invitation: { email: adminEmail, emailStatus: sent.emailStatus },
  }
}

export const ADMIN_TAKEN_MESSAGE =
  'This email already has an account: choose another email for the hospital’s first admin'

function startOfUtcDay(d: Date): Date {
  return new Date(`${d.toISOString().slice(0, 10)}T00:00:00Z`)
}

/** PATCH /api/admin/hospitals/:id: plan, seats, price, status (by the allowed moves) and trial end. */
export async function updateHospital(opts: {
  db: AppDb
  userId: string
  id: string
  input: z.output<typeof updateHospitalInput>
}): Promise<HospitalDetail> {
  const { input } = opts
  await withPlatform(opts.db, async (tx) => {
    const [current] = await tx
      .select(cardColumns)
      .from(hospitals)
      .where(eq(hospitals.id, opts.id))
      .for('update')
    if (!current) throw notFound('Hospital')
    const from = current.subscriptionStatus as SubscriptionStatus
    const to = input.subscriptionStatus ?? from
    if (!canMoveTo(from, to)) {
      throw new AppError(
        'INVALID_TRANSITION',
        `A hospital cannot move from ${subscriptionStatusLabels[from]} to ${subscriptionStatusLabels[to]}`,
      )
    }
    const users = Number(current.currentUsers)
    if (input.maxUsers !== undefined && input.maxUsers < users) {
      throw new AppError(
        'CONFLICT',
        `Max users cannot be below the ${users} users the hospital has now`,
      )
    }
    const changes: string[] = []
    if (to !== from)
      changes.push(`status ${subscriptionStatusLabels[from]} → ${subscriptionStatusLabels[to]}`)
    if (input.plan !== undefined && input.plan !== current.plan)
      changes.push(`plan ${current.plan} → ${input.plan}`)
    if (input.maxUsers !== undefined && input.maxUsers !== current.maxUsers)
      changes.push(`max users ${current.maxUsers} → ${input.maxUsers}`)
    if (input.pricePerUser !== undefined && input.pricePerUser !== current.pricePerUser)
      changes.push(
        `price per user ${formatMoney(current.pricePerUser)} → ${formatMoney(input.pricePerUser)}`,
      )
    const trialEndsAt =
      input.trialEndsAt === undefined
        ? undefined
        : input.trialEndsAt === null
          ? null
          : new Date(`${input.trialEndsAt}T00:00:00Z`)
    const before = current.trialEndsAt?.toISOString().slice(0, 10) ?? null
    if (input.trialEndsAt !== undefined && input.trialEndsAt !== before)
      changes.push(`trial end ${before ?? 'none'} → ${input.trialEndsAt ?? 'none'}`)
    if (!changes.length) return
    await tx
      .update(hospitals)
      .set({
        ...(input.plan !== undefined ? { plan: input.plan } : {}),
        ...(input.maxUsers !== undefined ? { maxUsers: input.maxUsers } : {}),
        ...(input.pricePerUser !== undefined ? { pricePerUser: input.pricePerUser } : {}),
        ...(trialEndsAt !== undefined ? { trialEndsAt } : {}),
        subscriptionStatus: to,
        updatedAt: new Date(),
      })
      .where(eq(hospitals.id, opts.id))
    await recordPlatformAudit(tx, {
      actorUserId: opts.userId,
      hospitalId: opts.id,
      action: to !== from ? 'hospital.status_changed' : 'hospital.updated',
      entityType: 'hospital',
      entityId: opts.id,
      summary: `${current.name}: ${changes.join('; ')}`,
    })
  })
  return getHospital({ db: opts.db, id: opts.id })
}
