import type { FastifyInstance } from 'fastify'
import {
  reminderIdParam,
  remindersQuery,
  saveNotificationSettingsInput,
} from '../../../shared/schemas/messaging-reminders'
import { can } from '../../../shared/permissions'
import { actingMember, member, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { getNotifications, saveNotifications } from './notifications.service'
import { listReminders } from './reminders.service'
import { sandboxOutbox } from './sandbox-outbox.service'
import { sendReminder } from './send-reminder.service'

/**
 * Settings → Notifications (members read, admins save), its Pending Reminders card with Send
 * Now (anyone who may message leads), and the Sandbox Outbox (members who read leads).
 */
export function notificationsRoutes(
  app: FastifyInstance,
  deps: {
    db: AppDb
    /** Development or demo server: admins see booking codes in the Sandbox Outbox. */
    revealSandboxCodes?: boolean | undefined
  },
): void {
  const { db } = deps
  const read = { config: requirePermission('leads:read') }
  const write = { config: requirePermission('leads:write') }
  const manage = { config: requirePermission('hospital:manage') }

  app.get('/api/settings/notifications', read, async (req) =>
    getNotifications({ db, ...actingMember(req) }),
  )

  app.put('/api/settings/notifications', manage, async (req) => {
    const values = parse(saveNotificationSettingsInput, req.body)
    return saveNotifications({ db, ...actingMember(req), values })
  })

  app.get('/api/reminders', read, async (req) => {
    const query = parse(remindersQuery, req.query)
    return listReminders({ db, ...actingMember(req), ...query })
  })

  app.post('/api/reminders/:id/send', write, async (req, reply) => {
    const { id } = parse(reminderIdParam, req.params)
    return reply.code(202).send(await sendReminder({ db, ...actingMember(req), id }))
  })

  app.get('/api/sandbox-outbox', read, async (req) =>
    sandboxOutbox({
      db,
      ...actingMember(req),
      revealCodes: Boolean(deps.revealSandboxCodes) && can(member(req).role, 'hospital:manage'),
    }),
  )
}
