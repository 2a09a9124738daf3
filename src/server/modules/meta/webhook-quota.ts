import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { giveBackQuota, takeQuota } from '../../http/rate-limit-store'

/**
 * Accepted leadgen changes per hospital (docs/decisions/021): every accepted change becomes a
 * meta.fetch-lead job, so a hospital's signed deliveries may add at most this many a minute,
 * counted in PostgreSQL across instances. Over it the whole delivery is refused with 429 and
 * nothing of it is stored; Meta retries it later, and Sync Leads catches up whatever is left.
 */
export const DEFAULT_CHANGES_PER_MINUTE = 600
/** Meta batches at most 1,000 updates in one delivery (its Webhooks guide). */
export const MAX_CHANGES_PER_DELIVERY = 1_000
export const CHANGE_QUOTA_WINDOW_MS = 60_000

export const changeQuotaKey = (hospitalId: string) => `meta-webhook-changes:${hospitalId}`

/** A delivery over a hospital's quota: 429 with the seconds until the window ends. */
export class ChangeQuotaExceeded extends AppError {
  constructor(
    perMinute: number,
    readonly retryAfter: number,
  ) {
    super(
      'RATE_LIMITED',
      `Over this hospital's quota of ${perMinute} accepted lead changes a minute (META_WEBHOOK_CHANGES_PER_MINUTE); nothing of this delivery was stored. Send it again later.`,
    )
  }
}

/** The most changes one delivery may carry: Meta's batch size, or the quota when smaller. */
export const changesPerDeliveryCap = (perMinute: number) =>
  Math.min(MAX_CHANGES_PER_DELIVERY, perMinute)

/**
 * Takes each hospital's share of the delivery from its quota, all or nothing: when one
 * hospital is over, what was taken for the others is given back and the delivery is refused.
 * Returns how to give a hospital's share back (its enqueue failed).
 */
export async function takeChangeQuota(
  db: AppDb,
  perHospital: Map<string, readonly unknown[]>,
  perMinute: number,
): Promise<{ giveBack: (hospitalIds: string[]) => Promise<void> }> {
  const cap = changesPerDeliveryCap(perMinute)
  const total = [...perHospital.values()].reduce((n, list) => n + list.length, 0)
  if (total > cap) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `A delivery may carry at most ${cap} leadgen changes; this one has ${total}. Nothing was stored.`,
    )
  }
  const taken: string[] = []
  const giveBack = async (hospitalIds: string[]) => {
    for (const hospitalId of hospitalIds) {
      const amount = perHospital.get(hospitalId)?.length ?? 0
      if (amount) await giveBackQuota(db, changeQuotaKey(hospitalId), amount)
    }
  }
  for (const [hospitalId, changes] of perHospital) {
    const quota = await takeQuota(
      db,
      changeQuotaKey(hospitalId),
      CHANGE_QUOTA_WINDOW_MS,
      changes.length,
      perMinute,
    )
    if (!quota.allowed) {
      await giveBack(taken)
      throw new ChangeQuotaExceeded(perMinute, Math.max(1, Math.ceil(quota.ttlMs / 1000)))
    }
    taken.push(hospitalId)
  }
  return { giveBack }
}
