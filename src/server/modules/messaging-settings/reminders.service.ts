import { sql } from 'drizzle-orm'
import type { ReminderStatus } from '../../../shared/messaging'
import type { Reminder, RemindersPage } from '../../../shared/schemas/messaging-reminders'
import type { AppDb, Tx } from '../../db/client'
import { leads, leadSettings } from '../../db/schema/leads'
import { reminders } from '../../db/schema/messaging'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { DEFAULT_FOLLOW_UP_DAYS } from '../../../shared/schemas/leads'
import { timeZoneOf } from '../leads/leads.stats'

export interface ReminderOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

/** A computed lead follow-up's reminder id. */
export const FOLLOW_UP_PREFIX = 'follow-up:'

/** Leads waiting for a follow-up (the brief's: not yet converted or rejected). */
export const waitingStatuses = sql`('new', 'contacted', 'follow-up')`

/**
 * Lead follow-ups due (as GET /api/stats counts them): a waiting lead whose last contact (or
 * creation) falls on a local day at least followUpDays before today.
 */
export function dueFollowUps(tz: string) {
  const days = sql`coalesce((select ${leadSettings.followUpDays} from ${leadSettings}), ${DEFAULT_FOLLOW_UP_DAYS}::int)`
  const dueBefore = sql`((now() at time zone ${tz})::date - (${days} - 1))::timestamp at time zone ${tz}`
  return {
    where: sql`${leads.status} in ${waitingStatuses} and ${leads.followUpFrom} < ${dueBefore}`,
    dueAt: sql`${leads.followUpFrom} + make_interval(days => ${days})`,
    days,
  }
}

interface Row {
  id: string
  type: Reminder['type']
  message: string
  status: ReminderStatus
  channel: Reminder['channel']
  due_at: string | Date
  lead_id: string | null
  patient_id: string | null
  name: string | null
}

async function rowsOf<T>(tx: Tx, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows
}

/**
 * GET /api/reminders: stored reminders with the status asked for, and for 'pending' also the
 * computed lead follow-ups due (id `follow-up:<leadId>`, channel WhatsApp as the dialog's
 * first choice: Send Now picks the best channel), soonest due first, a page of `limit` after
 * `offset`, and the total.
 */
export async function listReminders(
  opts: ReminderOptions & { status: ReminderStatus; limit: number; offset: number },
): Promise<RemindersPage> {
  const tz = await timeZoneOf(opts.db, opts.hospitalId)
  const due = dueFollowUps(tz)
  const stored = sql`
    select ${reminders.id}::text as id, ${reminders.type} as type, ${reminders.message} as message,
           ${reminders.status} as status, ${reminders.channel} as channel, ${reminders.dueAt} as due_at,
           ${reminders.leadId} as lead_id, ${reminders.patientId} as patient_id,
           coalesce(${patients.name}, ${leads.name}) as name
    from ${reminders}
    left join ${leads} on ${leads.hospitalId} = ${reminders.hospitalId} and ${leads.id} = ${reminders.leadId}
    left join ${patients} on ${patients.hospitalId} = ${reminders.hospitalId} and ${patients.id} = ${reminders.patientId}
    where ${reminders.status} = ${opts.status}`
  const computed = sql`
    select ${FOLLOW_UP_PREFIX} || ${leads.id}::text, 'follow_up', 'Follow up with ' || ${leads.name} || ': no contact for ' || ${due.days} || ' days or more',
           'pending', 'whatsapp', ${due.dueAt}, ${leads.id}, ${leads.patientId}, ${leads.name}
    from ${leads} where ${due.where}`
  const all = opts.status === 'pending' ? sql`${stored} union all ${computed}` : stored
  return withTenant(opts.db, opts, async (tx) => {
    const rows = await rowsOf<Row>(
      tx,
      sql`select * from (${all}) r order by r.due_at asc, r.id asc limit ${opts.limit} offset ${opts.offset}`,
    )
    const [total] = await rowsOf<{ n: number }>(tx, sql`select count(*)::int as n from (${all}) r`)
    return {
      data: rows.map((r) => ({
        id: r.id,
        type: r.type,
        message: r.message,
        status: r.status,
        channel: r.channel,
        dueAt: new Date(r.due_at).toISOString(),
        leadId: r.lead_id,
        patientId: r.patient_id,
        name: r.name ?? '',
      })),
      total: Number(total?.n ?? 0),
    }
  })
}
