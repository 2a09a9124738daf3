import type { QueryClient, QueryKey } from '@tanstack/react-query'
import { FEED_SIZE } from '@/shared/live-monitoring'
import {
  type ActivitiesResponse,
  type Activity,
  activity as activitySchema,
  type OnlineUser,
  type OnlineUsersResponse,
  type OverviewResponse,
  type PresenceEvent,
  presenceEvent as presenceSchema,
} from '@/shared/schemas/live-monitoring'
import { activitiesKey, dailySummaryKey, onlineUsersKey, overviewKey } from './api/live-monitoring'

/** An event's JSON data checked against the contract, or null (a malformed event is dropped). */
export function parseActivity(data: string): Activity | null {
  return parseJson(data, (json) => activitySchema.safeParse(json))
}

export function parsePresence(data: string): PresenceEvent | null {
  return parseJson(data, (json) => presenceSchema.safeParse(json))
}

function parseJson<T>(
  data: string,
  parse: (json: unknown) => { success: true; data: T } | { success: false },
): T | null {
  try {
    const result = parse(JSON.parse(data))
    return result.success ? result.data : null
  } catch {
    return null
  }
}

const later = (a: string | null, b: string | null): string | null =>
  a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a

function updateMember(
  queryClient: QueryClient,
  userId: string,
  change: (member: OnlineUser) => OnlineUser,
): { found: boolean; before?: OnlineUser; after?: OnlineUser } {
  const list = queryClient.getQueryData<OnlineUsersResponse>(onlineUsersKey)
  const before = list?.users.find((u) => u.userId === userId)
  if (!list || !before) return { found: false }
  const after = change(before)
  queryClient.setQueryData<OnlineUsersResponse>(onlineUsersKey, {
    users: list.users.map((u) => (u.userId === userId ? after : u)),
  })
  return { found: true, before, after }
}

/** The Team Online card follows a member's switch between online and offline. */
function countOnline(queryClient: QueryClient, before: OnlineUser, after: OnlineUser): boolean {
  if (before.isOnline === after.isOnline) return true
  const overview = queryClient.getQueryData<OverviewResponse>(overviewKey)
  if (!overview) return false
  queryClient.setQueryData<OverviewResponse>(overviewKey, {
    ...overview,
    teamOnline: Math.max(0, overview.teamOnline + (after.isOnline ? 1 : -1)),
  })
  return true
}

/**
 * A pushed `activity`: it goes to the top of the feed (at most 20 kept), its member's row moves
 * (last activity; signed in or out; on a call or not). Returns the reads to fetch again for
 * what only the server can count (the cards' calls and messages, the daily summary, a member
 * the board does not list yet); the caller coalesces them.
 */
export function applyActivity(queryClient: QueryClient, event: Activity): QueryKey[] {
  const feed = queryClient.getQueryData<ActivitiesResponse>(activitiesKey)
  if (feed && !feed.activities.some((a) => a.id === event.id)) {
    const activities = [event, ...feed.activities]
      .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp))
      .slice(0, FEED_SIZE)
    queryClient.setQueryData<ActivitiesResponse>(activitiesKey, { activities })
  }
  const type = event.activityType
  const member = updateMember(queryClient, event.userId, (m) => ({
    ...m,
    lastActivity: later(m.lastActivity, event.timestamp),
    ...(type === 'login' ? { isOnline: true, loginTime: event.timestamp } : {}),
    ...(type === 'logout' ? { isOnline: false } : {}),
    ...(type === 'call_start' ? { onCall: true } : {}),
    ...(type === 'call_end' ? { onCall: false } : {}),
  }))
  const refetch: QueryKey[] = [dailySummaryKey]
  // A call's end changes the member's calls today and talk time, which only the server counts.
  if (!member.found || type === 'call_end') refetch.push(onlineUsersKey)
  const onlineCounted =
    member.found && member.before && member.after
      ? countOnline(queryClient, member.before, member.after)
      : false
  if (type !== 'login' && type !== 'logout') refetch.push(overviewKey)
  else if (!onlineCounted) refetch.push(overviewKey)
  return refetch
}

/** A pushed `presence` change: the member's dot and the Team Online card. */
export function applyPresence(queryClient: QueryClient, event: PresenceEvent): QueryKey[] {
  const member = updateMember(queryClient, event.userId, (m) => ({
    ...m,
    isOnline: event.isOnline,
    lastActivity: later(m.lastActivity, event.lastActivity),
  }))
  if (!member.found || !member.before || !member.after) return [onlineUsersKey, overviewKey]
  return countOnline(queryClient, member.before, member.after) ? [] : [overviewKey]
}
