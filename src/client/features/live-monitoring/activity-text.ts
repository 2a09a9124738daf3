import type { ActivityType } from '@/shared/live-monitoring'
import type { Activity, ActivityData } from '@/shared/schemas/live-monitoring'

/** The first of these keys whose value is a non-empty string. */
function text(data: ActivityData, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = data[key]
    if (typeof value === 'string' && value.trim()) return value.trim()
  }
  return null
}

/** '4 min 12 s', '45 s', '1 h 5 min'. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const rest = s % 60
  if (h) return m ? `${h} h ${m} min` : `${h} h`
  if (m) return rest ? `${m} min ${rest} s` : `${m} min`
  return `${rest} s`
}

/** '7 h 30 min' for a number of minutes (working time). */
export function formatMinutes(minutes: number): string {
  const h = Math.floor(Math.max(0, minutes) / 60)
  const m = Math.max(0, Math.round(minutes)) % 60
  if (!h) return `${m} min`
  return m ? `${h} h ${m} min` : `${h} h`
}

/** Talk time: '45 s' under a minute, else whole minutes ('12 min', '1 h 5 min'). */
export function formatTalk(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  return s < 60 ? `${s} s` : formatMinutes(Math.round(s / 60))
}

const NAME_KEYS = ['leadName', 'patientName', 'recipientName', 'name', 'to', 'recipient']

/**
 * One line per activity, what the feed says after the member's name: 'added patient Rahul
 * Verma', 'ended a call with Kavya Nair (4 min 12 s)'. Whatever the activity's data lacks is
 * left out rather than guessed.
 */
export function activityPhrase(
  activity: Pick<Activity, 'activityType' | 'activityData'> & { userName?: string },
): string {
  const data = activity.activityData
  const who = text(data, ...NAME_KEYS)
  const withWho = who ? ` with ${who}` : ''
  const toWho = who ? ` to ${who}` : ''
  const type: ActivityType = activity.activityType
  switch (type) {
    case 'call_start':
      return `started a call${withWho}`
    case 'call_end': {
      const seconds = data.durationSeconds
      const duration = typeof seconds === 'number' ? ` (${formatDuration(seconds)})` : ''
      return `ended a call${withWho}${duration}`
    }
    case 'email_sent':
      return `sent an email${toWho}`
    case 'sms_sent':
      return `sent an SMS${toWho}`
    case 'whatsapp_sent':
      return `sent a WhatsApp message${toWho}`
    case 'login':
      return 'signed in'
    case 'logout':
      return 'signed out'
    case 'patient_added': {
      const patient = text(data, 'patientName', 'name')
      return patient ? `added patient ${patient}` : 'added a patient'
    }
    case 'appointment_scheduled': {
      const patient = text(data, 'patientName', 'name')
      if (isOnlineBooking(activity))
        return `booked an appointment online${activity.userName ? ` with ${activity.userName}` : ''}`
      return patient ? `scheduled an appointment for ${patient}` : 'scheduled an appointment'
    }
  }
}

/** A patient's own booking on the public page (recorded against the doctor it is with). */
export function isOnlineBooking(
  activity: Pick<Activity, 'activityType' | 'activityData'>,
): boolean {
  return (
    activity.activityType === 'appointment_scheduled' && activity.activityData.source === 'online'
  )
}

/**
 * Who the feed names as having done it (issue 40, item 14): the staff member, except for an
 * online self-booking, which the patient did ('Online booking' when the name is not known).
 */
export function activityActor(
  activity: Pick<Activity, 'activityType' | 'activityData' | 'userName'>,
): string {
  if (!isOnlineBooking(activity)) return activity.userName
  return text(activity.activityData, 'patientName', 'name') ?? 'Online booking'
}
