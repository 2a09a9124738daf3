import { sql } from 'drizzle-orm'
import type { ActivityType } from '../../../shared/live-monitoring'
import type { ActivityData } from '../../../shared/schemas/live-monitoring'
import type { Tx } from '../../db/client'
import { activities } from '../../db/schema/live-monitoring'
import { MESSAGING_CHANNEL } from '../messaging/notify'

/*
 * recordActivity: the one way an activity is written (issue 29, docs/decisions/040), inside the
 * caller's tenant transaction so it commits or rolls back with the action it records. Its NOTIFY
 * (on the 'messaging' channel the SSE hub listens to) is delivered by PostgreSQL at COMMIT only,
 * so a rolled-back action is never announced.
 */

export interface ActivityEntry {
  /** The activity's id when the caller needs it first (a call's id is its call_start's). */
  id?: string | undefined
  hospitalId: string
  userId: string
  type: ActivityType
  /** What the screen shows (names, channel, ids); never a secret, a message text or an address. */
  data?: ActivityData | undefined
  /** When it happened (default: the transaction's clock). The seed and tests set it. */
  at?: Date | undefined
  /** A fact reported more than once is recorded once: 'message:<id>', 'call_end:<callId>'. */
  dedupeKey?: string | undefined
}

export interface RecordedActivity {
  id: string
  occurredAt: Date
}

/** The NOTIFY payloads of live monitoring (kind tells them apart from messaging's). */
export interface ActivityNotice {
  kind: 'activity'
  hospitalId: string
  activity: {
    id: string
    userId: string
    activityType: ActivityType
    timestamp: string
    activityData: ActivityData
  }
}
export interface PresenceNotice {
  kind: 'presence'
  hospitalId: string
  presence: { userId: string; isOnline: boolean; lastActivity: string | null }
}

const MAX_TEXT = 200

/** Keeps the data small and plain: strings capped, nothing nested. */
function cleanData(data: ActivityData | undefined): ActivityData {
  const out: ActivityData = {}
  for (const [key, value] of Object.entries(data ?? {})) {
    if (typeof value === 'string') out[key] = value.slice(0, MAX_TEXT)
    else if (value === null || typeof value === 'boolean') out[key] = value
    else if (typeof value === 'number' && Number.isFinite(value)) out[key] = value
  }
  return out
}

/** Null when an activity with the same dedupe key was recorded before (nothing written). */
export async function recordActivity(
  tx: Tx,
  entry: ActivityEntry,
): Promise<RecordedActivity | null> {
  const data = cleanData(entry.data)
  const [row] = await tx
    .insert(activities)
    .values({
      ...(entry.id ? { id: entry.id } : {}),
      hospitalId: entry.hospitalId,
      userId: entry.userId,
      activityType: entry.type,
      data,
      dedupeKey: entry.dedupeKey ?? null,
      ...(entry.at ? { occurredAt: entry.at } : {}),
    })
    .onConflictDoNothing({ target: [activities.hospitalId, activities.dedupeKey] })
    .returning({ id: activities.id, occurredAt: activities.occurredAt })
  if (!row) return null
  const notice: ActivityNotice = {
    kind: 'activity',
    hospitalId: entry.hospitalId,
    activity: {
      id: row.id,
      userId: entry.userId,
      activityType: entry.type,
      timestamp: row.occurredAt.toISOString(),
      activityData: data,
    },
  }
  await notifyLive(tx, notice)
  return row
}

/** Announces inside the caller's transaction: delivered at COMMIT, to every instance. */
export async function notifyLive(tx: Tx, notice: ActivityNotice | PresenceNotice): Promise<void> {
  await tx.execute(sql`select pg_notify(${MESSAGING_CHANNEL}, ${JSON.stringify(notice)})`)
}
