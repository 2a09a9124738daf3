import { DEFAULT_FOLLOW_UP_DAYS } from '../../../shared/schemas/leads'
import {
  type NotificationSettingsView,
  QUIET_HOURS_ORDER_MESSAGE,
  type SaveNotificationSettingsInput,
} from '../../../shared/schemas/messaging-reminders'
import type { AppDb, Tx } from '../../db/client'
import { leadSettings } from '../../db/schema/leads'
import { notificationSettings } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'

export interface NotificationOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

/** The spec's defaults (§2 Settings → Notifications): email on, SMS off, push on, reminders on. */
export const defaultNotifications = {
  emailEnabled: true,
  smsEnabled: false,
  pushEnabled: true,
  appointmentReminders: true,
  quietHoursStart: '10:00',
  quietHoursEnd: '21:00',
} as const

/** The hospital's notification settings and follow-up days, inside its transaction. */
export async function readNotifications(tx: Tx): Promise<NotificationSettingsView> {
  const [row] = await tx.select().from(notificationSettings)
  const [lead] = await tx.select({ days: leadSettings.followUpDays }).from(leadSettings)
  return {
    emailEnabled: row?.emailEnabled ?? defaultNotifications.emailEnabled,
    smsEnabled: row?.smsEnabled ?? defaultNotifications.smsEnabled,
    pushEnabled: row?.pushEnabled ?? defaultNotifications.pushEnabled,
    appointmentReminders: row?.appointmentReminders ?? defaultNotifications.appointmentReminders,
    quietHoursStart: row?.quietHoursStart ?? defaultNotifications.quietHoursStart,
    quietHoursEnd: row?.quietHoursEnd ?? defaultNotifications.quietHoursEnd,
    followUpDays: lead?.days ?? DEFAULT_FOLLOW_UP_DAYS,
  }
}

export async function getNotifications(
  opts: NotificationOptions,
): Promise<NotificationSettingsView> {
  return withTenant(opts.db, opts, readNotifications)
}

/**
 * Saves the notification settings inside the caller's tenant transaction. Fields left out keep
 * their value; the quiet hours must open before they close (checked against the stored other
 * end too). Follow-up days are lead_settings.follow_up_days, the figure the dashboard's
 * follow-ups and the reminders use. PUT /api/settings (issue 27) saves through here too.
 * Answers the keys whose value changed.
 */
export async function applyNotifications(
  tx: Tx,
  hospitalId: string,
  values: SaveNotificationSettingsInput,
): Promise<string[]> {
  const before = await readNotifications(tx)
  const { followUpDays, ...rest } = values
  const next = {
    ...before,
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
  }
  if (next.quietHoursStart >= next.quietHoursEnd) {
    throw new AppError('VALIDATION', QUIET_HOURS_ORDER_MESSAGE, [
      { path: 'quietHoursEnd', message: QUIET_HOURS_ORDER_MESSAGE },
    ])
  }
  const row = {
    emailEnabled: next.emailEnabled,
    smsEnabled: next.smsEnabled,
    pushEnabled: next.pushEnabled,
    appointmentReminders: next.appointmentReminders,
    quietHoursStart: next.quietHoursStart,
    quietHoursEnd: next.quietHoursEnd,
    updatedAt: new Date(),
  }
  await tx
    .insert(notificationSettings)
    .values({ hospitalId, ...row })
    .onConflictDoUpdate({ target: notificationSettings.hospitalId, set: row })
  if (followUpDays !== undefined) {
    await tx
      .insert(leadSettings)
      .values({ hospitalId, followUpDays })
      .onConflictDoUpdate({ target: leadSettings.hospitalId, set: { followUpDays } })
  }
  return Object.keys(values).filter(
    (k) =>
      values[k as keyof SaveNotificationSettingsInput] !==
      before[k as keyof NotificationSettingsView],
  )
}

/** PUT /api/settings/notifications (admins). */
export async function saveNotifications(
  opts: NotificationOptions & { values: SaveNotificationSettingsInput },
): Promise<NotificationSettingsView> {
  return withTenant(opts.db, opts, async (tx) => {
    const changed = await applyNotifications(tx, opts.hospitalId, opts.values)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'notifications.saved',
      entityType: 'notification_settings',
      entityId: null,
      summary: `Notification settings saved (${changed.join(', ') || 'no changes'})`,
    })
    return readNotifications(tx)
  })
}
