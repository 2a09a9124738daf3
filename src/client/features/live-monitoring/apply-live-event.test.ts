import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type {
  ActivitiesResponse,
  Activity,
  OnlineUser,
  OnlineUsersResponse,
  OverviewResponse,
} from '@/shared/schemas/live-monitoring'
import { activitiesKey, dailySummaryKey, onlineUsersKey, overviewKey } from './api/live-monitoring'
import { applyActivity, applyPresence, parseActivity, parsePresence } from './apply-live-event'

const member = (userId: string, over: Partial<OnlineUser> = {}): OnlineUser => ({
  id: userId,
  userId,
  isOnline: false,
  lastActivity: null,
  loginTime: null,
  onCall: false,
  callsToday: 0,
  talkSecondsToday: 0,
  user: { firstName: 'Priya', lastName: 'Sharma', role: 'receptionist' },
  ...over,
})

const act = (id: string, over: Partial<Activity> = {}): Activity => ({
  id,
  userId: 'u1',
  userName: 'Priya Sharma',
  activityType: 'patient_added',
  timestamp: '2026-11-27T10:00:00.000Z',
  activityData: { patientName: 'Rahul Verma' },
  ...over,
})

function seeded() {
  const qc = new QueryClient()
  qc.setQueryData<ActivitiesResponse>(activitiesKey, {
    activities: Array.from({ length: 20 }, (_, i) =>
      act(`old-${i}`, { timestamp: new Date(Date.UTC(2026, 10, 27, 9, 59 - i)).toISOString() }),
    ),
  })
  qc.setQueryData<OnlineUsersResponse>(onlineUsersKey, {
    users: [
      member('u0', { isOnline: true, lastActivity: '2026-11-27T09:00:00.000Z' }),
      member('u1'),
    ],
  })
  qc.setQueryData<OverviewResponse>(overviewKey, {
    teamOnline: 1,
    ongoingCalls: 0,
    callsToday: 3,
    messagesSent: 2,
  })
  return qc
}

const feed = (qc: QueryClient) => qc.getQueryData<ActivitiesResponse>(activitiesKey)!.activities
const user = (qc: QueryClient, id: string) =>
  qc.getQueryData<OnlineUsersResponse>(onlineUsersKey)!.users.find((u) => u.userId === id)!
const overview = (qc: QueryClient) => qc.getQueryData<OverviewResponse>(overviewKey)!

describe('applyActivity', () => {
  it('puts a new activity on top of the feed, keeps 20, and ignores a repeat', () => {
    const qc = seeded()
    applyActivity(qc, act('new'))
    expect(feed(qc)).toHaveLength(20)
    expect(feed(qc)[0]!.id).toBe('new')
    expect(feed(qc).some((a) => a.id === 'old-19')).toBe(false)
    applyActivity(qc, act('new'))
    expect(feed(qc).filter((a) => a.id === 'new')).toHaveLength(1)
  })

  it('a sign-in marks the member online with its time and counts them on the card', () => {
    const qc = seeded()
    const refetch = applyActivity(qc, act('in', { activityType: 'login', activityData: {} }))
    expect(user(qc, 'u1')).toMatchObject({
      isOnline: true,
      loginTime: '2026-11-27T10:00:00.000Z',
      lastActivity: '2026-11-27T10:00:00.000Z',
    })
    expect(overview(qc).teamOnline).toBe(2)
    expect(refetch).toEqual([dailySummaryKey])
    // The same sign-in again (a presence event, say) counts nobody twice.
    applyPresence(qc, { userId: 'u1', isOnline: true, lastActivity: '2026-11-27T10:00:00.000Z' })
    expect(overview(qc).teamOnline).toBe(2)
  })

  it('calls switch the On a call badge and ask the server for the card figures', () => {
    const qc = seeded()
    const refetch = applyActivity(qc, act('c1', { activityType: 'call_start' }))
    expect(user(qc, 'u1').onCall).toBe(true)
    expect(refetch).toEqual(expect.arrayContaining([overviewKey, dailySummaryKey]))
    expect(refetch).not.toContain(onlineUsersKey)
    const ended = applyActivity(
      qc,
      act('c2', { activityType: 'call_end', timestamp: '2026-11-27T10:05:00.000Z' }),
    )
    // Its calls today and talk time come from the server.
    expect(ended).toContain(onlineUsersKey)
    expect(user(qc, 'u1')).toMatchObject({
      onCall: false,
      lastActivity: '2026-11-27T10:05:00.000Z',
    })
    // An older event never moves the last activity back.
    applyActivity(qc, act('late', { timestamp: '2026-11-27T08:00:00.000Z' }))
    expect(user(qc, 'u1').lastActivity).toBe('2026-11-27T10:05:00.000Z')
  })

  it('an activity of a member the board does not list fetches the board again', () => {
    const qc = seeded()
    expect(applyActivity(qc, act('x', { userId: 'someone-new' }))).toEqual(
      expect.arrayContaining([onlineUsersKey]),
    )
  })
})

describe('applyPresence', () => {
  it('moves the dot and the Team Online card, and fetches when it cannot tell', () => {
    const qc = seeded()
    expect(
      applyPresence(qc, {
        userId: 'u0',
        isOnline: false,
        lastActivity: '2026-11-27T09:30:00.000Z',
      }),
    ).toEqual([])
    expect(user(qc, 'u0')).toMatchObject({
      isOnline: false,
      lastActivity: '2026-11-27T09:30:00.000Z',
    })
    expect(overview(qc).teamOnline).toBe(0)
    expect(applyPresence(qc, { userId: 'nobody', isOnline: true, lastActivity: null })).toEqual([
      onlineUsersKey,
      overviewKey,
    ])
  })
})

describe('parsing', () => {
  it('drops events that do not match the contract', () => {
    expect(parseActivity('not json')).toBeNull()
    expect(parseActivity(JSON.stringify({ ...act('a'), activityType: 'hacked' }))).toBeNull()
    expect(parseActivity(JSON.stringify(act('a')))?.id).toBe('a')
    expect(parsePresence(JSON.stringify({ userId: 'u1', isOnline: 'yes' }))).toBeNull()
    expect(
      parsePresence(JSON.stringify({ userId: 'u1', isOnline: true, lastActivity: null })),
    ).toEqual({ userId: 'u1', isOnline: true, lastActivity: null })
  })
})
