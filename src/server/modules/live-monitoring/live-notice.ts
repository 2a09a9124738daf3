import { z } from 'zod'
import { activityTypes } from '../../../shared/live-monitoring'
import { activityData } from '../../../shared/schemas/live-monitoring'
import type { ActivityNotice, PresenceNotice } from './activity'

/** The NOTIFY payloads of activity.ts, checked before the hub fans them out. */
const notice = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('activity'),
    hospitalId: z.uuid(),
    activity: z.object({
      id: z.string(),
      userId: z.string(),
      activityType: z.enum(activityTypes),
      timestamp: z.string(),
      activityData,
    }),
  }),
  z.object({
    kind: z.literal('presence'),
    hospitalId: z.uuid(),
    presence: z.object({
      userId: z.string(),
      isOnline: z.boolean(),
      lastActivity: z.string().nullable(),
    }),
  }),
])

export function liveNotice(json: unknown): ActivityNotice | PresenceNotice | null {
  const kind = (json as { kind?: unknown } | null)?.kind
  if (kind !== 'activity' && kind !== 'presence') return null
  const parsed = notice.safeParse(json)
  return parsed.success ? parsed.data : null
}
