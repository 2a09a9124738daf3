import { eq } from 'drizzle-orm'
import type { AppDb, Tx } from '../../db/client'
import { staffPhones } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { VoiceProviderError } from '../../integrations/voice/voice-provider'
import { recordAudit } from '../audit/audit.service'
import type { CallsActor } from './calls.service'
import { hospitalVoice, readVoiceSettings, type VoiceOptions } from './voice-registry'

/**
 * PUT /api/calls/my-phone (issue 41): the staff member's own mobile, the phone click-to-call
 * rings first. It is stored at once and marked verified only when a test call to it through
 * the hospital's provider (the sandbox without one) was placed; a refused test call leaves it
 * unverified and answers the provider's reason (400 for a number it refuses, else 502).
 */

export interface MyPhone {
  phone: string | null
  verified: boolean
  verifiedAt: string | null
}

export async function getMyPhone(opts: CallsActor): Promise<MyPhone> {
  const [row] = await withTenant(opts.db, opts, (tx) =>
    tx.select().from(staffPhones).where(eq(staffPhones.userId, opts.userId)),
  )
  return {
    phone: row?.phone ?? null,
    verified: Boolean(row?.phoneVerifiedAt),
    verifiedAt: row?.phoneVerifiedAt?.toISOString() ?? null,
  }
}

/** The staff member's phone as stored, in the caller's tenant transaction (also the demo seed). */
export async function saveStaffPhone(
  tx: Tx,
  p: { hospitalId: string; userId: string; phone: string; verifiedAt: Date | null },
): Promise<void> {
  await tx
    .insert(staffPhones)
    .values({
      hospitalId: p.hospitalId,
      userId: p.userId,
      phone: p.phone,
      phoneVerifiedAt: p.verifiedAt,
    })
    .onConflictDoUpdate({
      target: [staffPhones.hospitalId, staffPhones.userId],
      set: { phone: p.phone, phoneVerifiedAt: p.verifiedAt, updatedAt: new Date() },
    })
}

async function store(opts: CallsActor, phone: string, verifiedAt: Date | null): Promise<void> {
  await withTenant(opts.db, opts, async (tx) => {
    await saveStaffPhone(tx, {
      hospitalId: opts.hospitalId,
      userId: opts.userId,
      phone,
      verifiedAt,
    })
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId ?? null,
      action: verifiedAt ? 'call.phone_verified' : 'call.phone_unverified',
      entityType: 'user',
      entityId: opts.userId,
      summary: verifiedAt
        ? 'Verified their own phone for calls with a test call'
        : 'Saved their own phone for calls; the test call was refused',
    })
  })
}

export async function setMyPhone(
  opts: CallsActor & { db: AppDb; phone: string; voice: VoiceOptions },
): Promise<MyPhone> {
  const voice = await withTenant(opts.db, opts, async (tx) =>
    hospitalVoice(await readVoiceSettings(tx), opts.hospitalId, opts.voice),
  )
  try {
    await voice.provider.startCall({
      staffPhone: opts.phone,
      customerPhone: opts.phone,
      callerId: voice.callerId,
      record: false,
      timeLimitSeconds: 60,
      reference: 'phone-check',
    })
  } catch (error) {
    if (!(error instanceof VoiceProviderError)) throw error
    await store(opts, opts.phone, null)
    throw new AppError(error.kind === 'invalid-number' ? 'BAD_REQUEST' : 'UPSTREAM', error.reason)
  }
  const now = new Date()
  await store(opts, opts.phone, now)
  return { phone: opts.phone, verified: true, verifiedAt: now.toISOString() }
}
