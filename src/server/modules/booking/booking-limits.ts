import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { giveBackQuota, takeQuota } from '../../http/rate-limit-store'

/**
 * Abuse limits of the public booking page, kept in PostgreSQL (http/rate-limit-store.ts) so
 * every instance counts against the same totals. A refused request counts nothing.
 */
export const BOOKING_LIMITS = {
  /** Codes sent to one mobile number (any clinic) per hour. */
  holdsPerMobile: 5,
  /** Holds one IP address may ask for per hour. */
  holdsPerIp: 20,
  /** Code checks one IP address may make per hour. */
  confirmsPerIp: 30,
  /** Code checks of one hold (besides its 5 tries) per hour. */
  confirmsPerHold: 10,
} as const

const HOUR = 3_600_000

const minutesLeft = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 60_000))
const inMinutes = (ttlMs: number) => {
  const m = minutesLeft(ttlMs)
  return m === 1 ? 'in a minute' : `in ${m} minutes`
}

async function take(db: AppDb, key: string, max: number, message: (ttl: string) => string) {
  const quota = await takeQuota(db, key, HOUR, 1, max)
  if (!quota.allowed) throw new AppError('RATE_LIMITED', message(inMinutes(quota.ttlMs)))
  return key
}

/**
 * Takes one hold from the IP's and the mobile's quotas. Returns a give-back for when the hold is
 * then refused (a taken slot, bad input), so a visitor is not punished for a race they lost.
 */
export async function takeHoldQuota(
  db: AppDb,
  who: { ip: string; phone: string },
): Promise<() => Promise<void>> {
  const ipKey = await take(
    db,
    `booking:hold:ip:${who.ip}`,
    BOOKING_LIMITS.holdsPerIp,
    (ttl) =>
      `Too many booking attempts from your network. Please try again ${ttl}, or call the clinic.`,
  )
  let mobileKey: string
  try {
    mobileKey = await take(
      db,
      `booking:hold:mobile:${who.phone}`,
      BOOKING_LIMITS.holdsPerMobile,
      (ttl) =>
        `Too many codes were sent to this mobile number. Please try again ${ttl}, or call the clinic.`,
    )
  } catch (error) {
    await giveBackQuota(db, ipKey, 1)
    throw error
  }
  return async () => {
    await giveBackQuota(db, ipKey, 1)
    await giveBackQuota(db, mobileKey, 1)
  }
}

/** Takes one code check from the IP's and the hold's quotas. */
export async function takeConfirmQuota(
  db: AppDb,
  who: { ip: string; holdId: string },
): Promise<void> {
  await take(
    db,
    `booking:confirm:ip:${who.ip}`,
    BOOKING_LIMITS.confirmsPerIp,
    (ttl) => `Too many codes were tried from your network. Please try again ${ttl}.`,
  )
  await take(
    db,
    `booking:confirm:hold:${who.holdId}`,
    BOOKING_LIMITS.confirmsPerHold,
    (ttl) => `Too many tries for this booking. Please try again ${ttl}, or choose a slot again.`,
  )
}
