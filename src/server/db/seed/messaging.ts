import { and, asc, inArray, isNotNull, lt, sql } from 'drizzle-orm'
import type { Tx } from '../client'
import { hospitals } from '../schema/hospitals'
import { communications, leads } from '../schema/leads'
import { consentRecords, notificationSettings, reminders } from '../schema/messaging'
import { patients } from '../schema/patients'
import { ensureSpecTemplates } from '../../modules/messaging-settings/spec-templates'

/**
 * The demo's messaging (issue 25), per demo hospital: the spec's templates, notification
 * settings, a few consent records (one lead opted out), pending appointment and payment
 * reminders, and messages through the sandbox with every outcome: sent, delivered, read,
 * failed (with the reason in plain words), and WhatsApp replies, two of them unread. Runs in the
 * demo seed's transaction; a hospital that has notification settings already is left alone, so
 * it is idempotent. Deterministic but for ids and dates (relative to `now`).
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

async function seedHospital(tx: Tx, hospitalId: string, clinic: string, now: Date) {
  await ensureSpecTemplates(tx, hospitalId)
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
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR)
  const rows: (typeof communications.$inferInsert)[] = []
  outbound.forEach((m, i) => {
    const p = people[i]
    if (!p) return
    const to = m.channel === 'email' ? (p.email ?? `${p.phone.slice(-4)}@example.in`) : p.phone
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
      createdAt: at(m.hoursAgo),
      statusChangedAt: at(m.hoursAgo - 0.1),
    })
  })
  for (const r of replies) {
    const p = people[r.to]
    if (!p) continue
    rows.push({
      hospitalId,
      leadId: p.id,
      patientId: p.patientId,
      type: 'whatsapp',
      direction: 'inbound',
      content: r.text,
      status: 'received',
      contactAddress: p.phone,
      provider: 'sandbox',
      providerMessageId: `sbx_demo_in_${r.to + 1}`,
      sandbox: true,
      readAt: r.read ? at(r.hoursAgo - 0.5) : null,
      createdAt: at(r.hoursAgo),
      statusChangedAt: at(r.hoursAgo),
    })
  }
  if (rows.length) await tx.insert(communications).values(rows)
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

  // Consent: opt-ins given on the enquiry form, and one lead who replied STOP.
  const consents: (typeof consentRecords.$inferInsert)[] = people.slice(0, 3).map((p, i) => ({
    hospitalId,
    channel: 'whatsapp' as const,
    contactAddress: p.phone,
    action: 'opt_in' as const,
    method: 'form' as const,
    noticeVersion: 'messaging-notice-v1',
    createdAt: at(24 * (10 + i)),
  }))
  const stop = people[outbound.length]
  if (stop) {
    consents.push(
      {
        hospitalId,
        channel: 'whatsapp',
        contactAddress: stop.phone,
        action: 'opt_in',
        method: 'form',
        noticeVersion: 'messaging-notice-v1',
        createdAt: at(24 * 20),
      },
      {
        hospitalId,
        channel: 'whatsapp',
        contactAddress: stop.phone,
        action: 'opt_out',
        method: 'keyword',
        createdAt: at(24 * 2),
      },
      {
        hospitalId,
        channel: 'sms',
        contactAddress: stop.phone,
        action: 'opt_out',
        method: 'staff',
        createdAt: at(24 * 2),
      },
    )
  }
  if (consents.length) await tx.insert(consentRecords).values(consents)

  // Pending reminders for existing patients: appointments and a payment.
  const pts = await tx
    .select({ id: patients.id, name: patients.name, email: patients.email })
    .from(patients)
    .orderBy(asc(patients.createdAt), asc(patients.id))
    .limit(4)
  const plan = [
    {
      type: 'appointment' as const,
      inDays: 1,
      text: (n: string) =>
        `Appointment reminder for ${n}: tomorrow at 11:00 AM. Please arrive 10 minutes early.`,
    },
    {
      type: 'payment' as const,
      inDays: 0,
      text: (n: string) => `Payment reminder for ${n}: ₹1,500 is due for the last consultation.`,
    },
    {
      type: 'appointment' as const,
      inDays: 2,
      text: (n: string) =>
        `Appointment reminder for ${n}: follow-up visit the day after tomorrow at 5:30 PM.`,
    },
    {
      type: 'payment' as const,
      inDays: 3,
      text: (n: string) => `Payment reminder for ${n}: ₹2,750 for the lab tests is pending.`,
    },
  ]
  const due = pts.flatMap((p, i) => {
    const r = plan[i]
    return r
      ? [
          {
            hospitalId,
            type: r.type,
            message: r.text(p.name),
            channel: p.email ? ('email' as const) : ('sms' as const),
            patientId: p.id,
            dueAt: new Date(now.getTime() + r.inDays * DAY),
            createdAt: now,
          },
        ]
      : []
  })
  if (due.length) await tx.insert(reminders).values(due)

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
    .select({ id: hospitals.id, email: hospitals.email })
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
    await seedHospital(tx, row.id, h.name.split(',')[0] ?? h.name, now)
    changed = true
  }
  return changed
}
