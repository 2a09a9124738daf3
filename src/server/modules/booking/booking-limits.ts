import { isIPv4, isIPv6 } from 'node:net'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { takeQuota } from '../../http/rate-limit-store'

/**
 * Abuse limits of the public booking page, kept in PostgreSQL (http/rate-limit-store.ts) so
 * every instance counts against the same totals. Every hold asked for counts, whatever its
 * answer (a taken slot, an opted-out mobile), and nothing is given back: a refusal must cost as
 * much as a success, or the limits would tell answers apart (issue 39, items 9 and 10).
 */
export const BOOKING_LIMITS = {
  /** Codes sent to one mobile number (any clinic) per hour. */
  holdsPerMobile: 5,
  /** Holds one network (an IPv4 address, an IPv6 /64) may ask for per hour. */
  holdsPerIp: 20,
  /** Codes one hospital's page may send per hour, whoever asks (SMS pumping). */
  codesPerHospital: 60,
  /** Code checks one network may make per hour. */
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
}

/** The 16 bits of each IPv6 group, or null when `ip` is not an IPv6 address. */
function ipv6Groups(ip: string): number[] | null {
  if (!isIPv6(ip)) return null
  const bare = ip.split('%', 1)[0] ?? ''
  let text = bare
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1]
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number)
    text = `${bare.slice(0, -v4.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const left = part(head)
  const right = tail === undefined ? [] : part(tail)
  const fill = Array<number>(8 - left.length - right.length).fill(0)
  return [...left, ...fill, ...right]
}

/**
 * Who a per-IP limit counts: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4
 * address), an IPv6 address by its /64, the smallest network a visitor is given, so rotating
 * addresses inside one's own /64 buys nothing.
 */
export function networkOf(ip: string): string {
  if (isIPv4(ip)) return ip
  const groups = ipv6Groups(ip)
  if (!groups) return ip
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6)
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}

/**
 * Takes one hold from the network's, the mobile's and the hospital's quotas, in that order; the
 * first that is used up answers 429 (what came before it stays counted). `mobileKey` is the
 * mobile's keyed hash (booking-code.ts mobileQuotaKey), so the table holds no number.
 */
export async function takeHoldQuota(
  db: AppDb,
  who: { ip: string; mobileKey: string; hospitalId: string },
): Promise<void> {
  await take(
    db,
    `booking:hold:ip:${networkOf(who.ip)}`,
    BOOKING_LIMITS.holdsPerIp,
    (ttl) =>
      `Too many booking attempts from your network. Please try again ${ttl}, or call the clinic.`,
  )
  await take(
    db,
    `booking:hold:mobile:${who.mobileKey}`,
    BOOKING_LIMITS.holdsPerMobile,
    (ttl) =>
      `Too many codes were sent to this mobile number. Please try again ${ttl}, or call the clinic.`,
  )
  await take(
    db,
    hospitalCodesKey(who.hospitalId),
    BOOKING_LIMITS.codesPerHospital,
    (ttl) =>
      `This clinic's online booking has sent as many codes as it may this hour. Please try again ${ttl}, or call the clinic to book.`,
  )
}

/** The rate-limit key of a hospital's codes per hour (tests read and reset it). */
export const hospitalCodesKey = (hospitalId: string) => `booking:codes:hospital:${hospitalId}`

/** Takes one code check from the network's and the hold's quotas. */
export async function takeConfirmQuota(
  db: AppDb,
  who: { ip: string; holdId: string },
): Promise<void> {
  await take(
    db,
    `booking:confirm:ip:${networkOf(who.ip)}`,
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
