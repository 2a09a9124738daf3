import { and, gte, inArray, lt, sql } from 'drizzle-orm'
import { liveCallStatuses } from '../../../shared/calls'
import type { Tx } from '../../db/client'
import { calls } from '../../db/schema/calls'

/*
 * Live Monitoring's call figures from the calls themselves (issue 41), not from button presses:
 * who is on a call now (a call of theirs still queued, ringing or in progress: the provider's
 * events move it), and each person's calls of a day: made (outbound), answered, missed (ended
 * without an answer, either way) and talk time (the answered calls' seconds). Reads run in the
 * caller's tenant transaction, on the calls' hospital-led indexes.
 */

/** A live call older than this is not counted as ongoing (the reconcile job settles it). */
export const ONGOING_CALL_MAX_MS = 12 * 60 * 60_000

/** Live calls per user (the partial index calls_hospital_user_live_idx). */
export async function liveCallsByUser(tx: Tx, now: Date): Promise<Map<string, number>> {
  const since = new Date(now.getTime() - ONGOING_CALL_MAX_MS)
  const rows = await tx
    .select({ userId: calls.userId, n: sql<number>`count(*)::int` })
    .from(calls)
    .where(and(inArray(calls.status, [...liveCallStatuses]), gte(calls.startedAt, since)))
    .groupBy(calls.userId)
  return new Map(rows.map((r) => [r.userId, Number(r.n)]))
}

export interface CallDayFigures {
  /** Outbound calls placed (answered or not). */
  callsMade: number
  /** Calls either way that were answered. */
  callsAnswered: number
  /** Calls either way that ended without an answer (no answer, busy, failed, cancelled). */
  callsMissed: number
  /** The answered calls' conversation, in seconds. */
  talkSeconds: number
}

export const noCallFigures = (): CallDayFigures => ({
  callsMade: 0,
  callsAnswered: 0,
  callsMissed: 0,
  talkSeconds: 0,
})

/**
 * Each user's calls created (placed or rung) in [start, end) (calls_hospital_created_idx);
 * users without a call are absent.
 */
export async function callFiguresByUser(
  tx: Tx,
  range: { start: Date; end: Date },
  userIds?: readonly string[],
): Promise<Map<string, CallDayFigures>> {
  if (userIds && userIds.length === 0) return new Map()
  const rows = await tx
    .select({
      userId: calls.userId,
      made: sql<number>`count(*) filter (where ${calls.direction} = 'outbound')::int`,
      answered: sql<number>`count(*) filter (where ${calls.outcome} = 'answered')::int`,
      missed: sql<number>`count(*) filter (where ${calls.outcome} <> 'answered')::int`,
      talk: sql<number>`coalesce(sum(${calls.durationSeconds}) filter (where ${calls.outcome} = 'answered'), 0)::int`,
    })
    .from(calls)
    .where(
      and(
        gte(calls.createdAt, range.start),
        lt(calls.createdAt, range.end),
        userIds ? inArray(calls.userId, [...userIds]) : undefined,
      ),
    )
    .groupBy(calls.userId)
  return new Map(
    rows.map((r) => [
      r.userId,
      {
        callsMade: Number(r.made),
        callsAnswered: Number(r.answered),
        callsMissed: Number(r.missed),
        talkSeconds: Number(r.talk),
      },
    ]),
  )
}

/** Every call created in [start, end), either way (the overview's Calls Today). */
export async function callsStarted(tx: Tx, range: { start: Date; end: Date }): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(calls)
    .where(and(gte(calls.createdAt, range.start), lt(calls.createdAt, range.end)))
  return Number(row?.n ?? 0)
}
