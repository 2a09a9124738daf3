import { and, asc, inArray, isNotNull, lt, sql } from 'drizzle-orm'
import type { Tx } from '../client'
import { hospitals } from '../schema/hospitals'
import { communications, leads } from '../schema/leads'
import { notificationSettings } from '../schema/messaging'
import type { WorkingHours } from '../../../shared/scheduling'
import { ensureSpecTemplates } from '../../modules/messaging-settings/spec-templates'
import {
  recordFormOptIn,
  recordStaffOptOut,
  replayLeadReplies,
  seedPaymentReminders,
  storeDemoReply,
} from './messaging-inbound'
import { localTimeIn, workingHoursAgo } from './seed-hours'

/**
 * The demo's messaging (issue 25), per demo hospital: the spec's templates, notification
 * settings, consent records (one lead replied STOP), pending payment reminders, and messages
 * through the sandbox with every outcome: sent, delivered, read, failed (with the reason in
 * plain words), and WhatsApp replies, two of them unread. What a sending rule reads (replies,
 * so the 24-hour window; consents; reminders) is written through production's services
 * (messaging-inbound.ts, issue 40). Runs in the demo seed's transaction; a hospital that has
 * notification settings already is left alone, so it is idempotent. Deterministic but for ids
 * and dates (relative to `now`, in the hospital's working hours and zone).
 */

const HOUR = 3_600_000
const DAY = 24 * HOUR

interface Outbound {
  channel: 'whatsapp' | 'sms' | 'email'
  status: 'sent' | 'delivered' | 'read' | 'failed'
  hoursAgo: number
  template: string
  text: (name: string, clinic: string) => string
  failure?: { code: string; reason: string }
}

const outbound: Outbound[] = [
  {
    channel: 'whatsapp',
    status: 'read',
    hoursAgo: 30,
    template: 'welcome',
    text: (n, c) =>
      `Namaste ${n}, thank you for reaching out to ${c}. Our team will call you shortly to help you book a visit.`,
  },
  {
    channel: 'sms',
    status: 'delivered',
    hoursAgo: 50,
    template: 'appointment-reminder',
    text: (n, c) =>
      `Namaste ${n}, a gentle reminder of your appointment at ${c} tomorrow at 11:00 AM. Reply to reschedule.`,
  },
  {
    channel: 'email',
    status: 'delivered',
    hoursAgo: 74,
    template: 'follow-up',
    text: (n, c) =>
      `Namaste ${n}, we wanted to check in after your enquiry with ${c}. Would you like to book a consultation?`,
  },
  {
    channel: 'whatsapp',
    status: 'delivered',
    hoursAgo: 5,
    template: 'follow-up',
    text: (n, c) =>
      `Namaste ${n}, this is ${c} checking in. Shall we book your consultation this week?`,
  },
  {
    channel: 'sms',
    status: 'failed',
    hoursAgo: 26,
    template: 'welcome',
    text: (n, c) => `Namaste ${n}, thank you for contacting ${c}. We will call you shortly.`,
    failure: {
      code: '30003',
      reason: 'The phone was switched off or out of coverage, so the SMS could not be delivered.',
    },
  },
  {
    channel: 'whatsapp',
    status: 'failed',
    hoursAgo: 52,
    template: 'custom',
    text: (n) => `Hello ${n}, your reports are ready for collection.`,
    failure: {
      code: '131026',
      reason: 'This number is not on WhatsApp. Try an SMS or a call instead.',
    },
  },
  {
    channel: 'email',
    status: 'sent',
    hoursAgo: 2,
    template: 'welcome',
    text: (n, c) =>
      `Namaste ${n}, thank you for reaching out to ${c}. Our team will call you shortly.`,
  },
  {
    channel: 'whatsapp',
    status: 'read',
    hoursAgo: 20,
    template: 'appointment-reminder',
    text: (n, c) =>
      `Namaste ${n}, a gentle reminder of your appointment at ${c} tomorrow. Please arrive 10 minutes early.`,
  },
]

/** Replies on WhatsApp, to the first, fourth and eighth messages; the first two unread. */
const replies = [
  { to: 0, hoursAgo: 3, read: false, text: 'Thank you! Can I come on Saturday morning?' },
  { to: 3, hoursAgo: 1, read: false, text: 'हाँ, मंगलवार शाम 5 बजे ठीक रहेगा।' },
  { to: 7, hoursAgo: 18, read: true, text: 'Okay, I will be there. Thank you.' },
]

async function asTenant(tx: Tx, hospitalId: string) {
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${hospitalId}, true)`,
  )
}

interface HospitalCtx {
  hospitalId: string
  clinic: string
  now: Date
  timeZone: string
  hours: WorkingHours
}

async function seedHospital(tx: Tx, h: HospitalCtx) {
  const { hospitalId, clinic, now } = h
  await ensureSpecTemplates(tx, hospitalId)
  // The lead seed's replies, through the webhook's path first (they are older than ours).
  await replayLeadReplies(tx, hospitalId)
  // Leads waiting for an answer, assigned, older than the oldest demo message and with few
  // messages so far (the lead seed's rules: seed-lead-rules.ts).
  const few = sql`(select count(*) from ${communications} c where c.hospital_id = ${leads.hospitalId} and c.lead_id = ${leads.id}) <= 2`
  const people = await tx
    .select({
      id: leads.id,
      name: leads.name,
      phone: leads.phone,
      email: leads.email,
      patientId: leads.patientId,
      assignee: leads.assignedToUserId,
    })
    .from(leads)
    .where(
      and(
        inArray(leads.status, ['contacted', 'follow-up']),
        isNotNull(leads.assignedToUserId),
        lt(leads.createdAt, new Date(now.getTime() - 5 * DAY)),
        few,
      ),
    )
    .orderBy(asc(leads.phone))
    .limit(outbound.length + 1)
  // Relative to now, in the hospital's working hours; the longer ago, the earlier in a moved
  // evening (a reply stays after the message it answers).
  const at = (hoursAgo: number) =>
    workingHoursAgo(now, hoursAgo, h.hours, h.timeZone, 10 + Math.round(hoursAgo * 4))
  // A patient's reply: in working hours when that keeps it recent, else when they wrote it
  // (patients write at any hour): the demo's replies of the last hours always open the 24-hour
  // WhatsApp window, whatever the time the demo starts (issue 40 item 1).
  const replyAt = (hoursAgo: number) => {
    const moved = at(hoursAgo)
    return now.getTime() - moved.getTime() < 20 * HOUR
      ? moved
      : new Date(now.getTime() - hoursAgo * HOUR)
  }
  const rows: (typeof communications.$inferInsert)[] = []
  outbound.forEach((m, i) => {
    const p = people[i]
    if (!p) return
    const to = m.channel === 'email' ? (p.email ?? `${p.phone.slice(-4)}@example.in`) : p.phone
    const sentAt = at(m.hoursAgo)
    rows.push({
      hospitalId,
      leadId: p.id,
      patientId: p.patientId,
      type: m.channel,
      direction: 'outbound',
      content: m.text(p.name.split(' ')[0] ?? p.name, clinic),
      createdByUserId: p.assignee,
      status: m.status,
      metadata: {
        template: m.template,
        ...(m.channel === 'email' ? { subject: `A message from ${clinic}` } : {}),
      },
      contactAddress: m.channel === 'email' && !p.email ? null : to,
      provider: 'sandbox',
      providerMessageId: `sbx_demo_${i + 1}`,
      failureCode: m.failure?.code ?? null,
      failureReason: m.failure?.reason ?? null,
      sandbox: true,
      createdAt: sentAt,
      statusChangedAt: new Date(Math.min(now.getTime(), sentAt.getTime() + 6 * 60_000)),
    })
  })
  if (rows.length) await tx.insert(communications).values(rows)
  for (const r of replies) {
    const p = people[r.to]
    if (!p) continue
    const received = replyAt(r.hoursAgo)
    await storeDemoReply(tx, {
      hospitalId,
      phone: p.phone,
      text: r.text,
      at: received,
      readAt: r.read ? new Date(Math.min(now.getTime(), received.getTime() + 20 * 60_000)) : null,
      messageId: `sbx_demo_in_${r.to + 1}`,
    })
  }
  const ids = sql`(${sql.join(
    [...people.map((p) => sql`${p.id}::uuid`), sql`null::uuid`],
    sql`, `,
  )})`
  // Each lead's last contact is its newest communication (as the services keep it).
  await tx.execute(sql`
    update ${leads} set last_contact_at = c.newest
    from (select lead_id, max(created_at) as newest from ${communications}
          where type <> 'system' and lead_id in ${ids} group by lead_id) c
    where ${leads.id} = c.lead_id and ${leads.hospitalId} = ${hospitalId}`)

  // Consent: opt-ins given on the enquiry form, and one lead who replied STOP (stored as the
  // webhook stores it: the keyword records the opt-out) and asked staff to stop SMS too.
  for (const [i, p] of people.slice(0, 3).entries()) {
    await recordFormOptIn(tx, { hospitalId, phone: p.phone, at: at(24 * (10 + i)) })
  }
  const stop = people[outbound.length]
  if (stop) {
    await recordFormOptIn(tx, { hospitalId, phone: stop.phone, at: at(24 * 20) })
    const stoppedAt = at(24 * 2)
    await storeDemoReply(tx, {
      hospitalId,
      phone: stop.phone,
      text: 'STOP',
      at: stoppedAt,
      readAt: new Date(stoppedAt.getTime() + 15 * 60_000),
      messageId: 'sbx_demo_in_stop',
    })
    await recordStaffOptOut(tx, {
      hospitalId,
      channel: 'sms',
      address: stop.phone,
      at: new Date(stoppedAt.getTime() + 20 * 60_000),
    })
  }

  // Pending payment reminders, due in working hours (appointment ones: the appointments demo).
  await seedPaymentReminders(tx, {
    hospitalId,
    now,
    dueAt: (days) => localTimeIn(now, days, '10:30', h.timeZone),
  })

  // Last: it marks the hospital's messaging demo as done.
  await tx.insert(notificationSettings).values({ hospitalId })
}

/**
 * Adds the messaging demo to each demo hospital that lacks it, in the demo seed's transaction
 * (connecting role first for the platform read, then app_user per hospital, like completeDemo).
 */
export async function seedDemoMessaging(
  tx: Tx,
  demo: readonly { email: string; name: string }[],
  now: Date,
): Promise<boolean> {
  await tx.execute(sql`set local role none`)
  const rows = await tx
    .select({
      id: hospitals.id,
      email: hospitals.email,
      timeZone: hospitals.timeZone,
      hours: hospitals.workingHours,
    })
    .from(hospitals)
    .where(
      inArray(
        hospitals.email,
        demo.map((h) => h.email),
      ),
    )
  let changed = false
  for (const h of demo) {
    const row = rows.find((r) => r.email === h.email)
    if (!row) continue
    await asTenant(tx, row.id)
    const [done] = await tx
      .select({ id: notificationSettings.hospitalId })
      .from(notificationSettings)
    if (done) continue
    await seedHospital(tx, {
      hospitalId: row.id,
      clinic: h.name.split(',')[0] ?? h.name,
      now,
      timeZone: row.timeZone,
      hours: row.hours,
    })
    changed = true
  }
  return changed
}
