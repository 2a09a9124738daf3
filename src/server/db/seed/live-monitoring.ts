import { asc, eq, sql } from 'drizzle-orm'
import type { ActivityType } from '../../../shared/live-monitoring'
import { recordActivity } from '../../modules/live-monitoring/activity'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { leads } from '../schema/leads'
import { activities, userPresence } from '../schema/live-monitoring'
import { patients } from '../schema/patients'

/*
 * Live Monitoring demo data (issue 29, docs/decisions/040) for the first demo hospital: a working
 * week of its five staff's activities (sign-in, calls on seeded leads, SMS and emails, patients
 * added, appointments booked, sign-out), written through recordActivity like the real ones, and
 * presence relative to seed time (some online now, one on a call). Presence is time-based, so
 * those users read as away and then offline as the clock moves on: that is expected.
 * Runs in the seed's transaction; leaves the role as it found it (the connecting role).
 */

const MIN = 60_000
const DAY = 86_400_000
const PAST_DAYS = 6

type Step = { type: ActivityType; gap: number }

/** A day's pattern per role: each step comes `gap` minutes after the one before. */
const patterns: Record<string, Step[]> = {
  receptionist: [
    { type: 'login', gap: 0 },
    ...Array.from({ length: 6 }, (_, i): Step[] => [
      { type: 'call_start', gap: 6 + (i % 3) },
      { type: 'call_end', gap: 4 + (i % 2) },
      { type: i % 2 ? 'sms_sent' : 'email_sent', gap: 3 },
      { type: i % 3 === 0 ? 'appointment_scheduled' : 'patient_added', gap: 7 },
    ]).flat(),
  ],
  nurse: [
    { type: 'login', gap: 0 },
    { type: 'sms_sent', gap: 12 },
    { type: 'call_start', gap: 9 },
    { type: 'call_end', gap: 5 },
    { type: 'sms_sent', gap: 11 },
    { type: 'appointment_scheduled', gap: 13 },
    { type: 'call_start', gap: 10 },
    { type: 'call_end', gap: 6 },
    { type: 'sms_sent', gap: 14 },
  ],
  doctor: [
    { type: 'login', gap: 0 },
    { type: 'patient_added', gap: 14 },
    { type: 'appointment_scheduled', gap: 12 },
    { type: 'email_sent', gap: 10 },
    { type: 'appointment_scheduled', gap: 13 },
  ],
  admin: [
    { type: 'login', gap: 0 },
    { type: 'email_sent', gap: 15 },
    { type: 'patient_added', gap: 12 },
    { type: 'email_sent', gap: 9 },
  ],
  viewer: [{ type: 'login', gap: 0 }],
}

/** Minutes after 09:00 IST each role starts its day. */
const startAt: Record<string, number> = {
  receptionist: -30,
  nurse: -15,
  doctor: 30,
  admin: 60,
  viewer: 120,
}

const IST_MS = 5.5 * 3_600_000
/** 09:00 IST on the day `daysAgo` before `now`'s IST day. */
function nineAm(now: Date, daysAgo: number): number {
  const istMidnight = Math.floor((now.getTime() + IST_MS) / DAY) * DAY - IST_MS
  return istMidnight - daysAgo * DAY + 9 * 3_600_000
}

export async function seedDemoLiveMonitoring(
  tx: Tx,
  demo: readonly { key: string; email: string }[],
  now: Date,
): Promise<boolean> {
  const first = demo[0]
  if (!first) return false
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const [h] = await tx
    .select({ id: hospitals.id })
    .from(hospitals)
    .where(eq(hospitals.email, first.email))
  if (!h) return false
  const staff = await tx
    .select({ id: user.id, role: user.role, email: user.email })
    .from(user)
    .where(eq(user.hospitalId, h.id))
  const demoStaff = staff.filter((s) => s.email.endsWith(`@${first.key}.demo`) && patterns[s.role])
  if (!demoStaff.length) return false
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${h.id}, true)`,
  )
  const [any] = await tx.select({ id: activities.id }).from(activities).limit(1)
  if (any) {
    await tx.execute(sql`select set_config('role', 'none', true)`)
    return false
  }
  const leadRows = await tx
    .select({ id: leads.id, name: leads.name })
    .from(leads)
    .orderBy(asc(leads.createdAt), asc(leads.id))
    .limit(40)
  const patientRows = await tx
    .select({ id: patients.id, name: patients.name })
    .from(patients)
    .orderBy(asc(patients.createdAt), asc(patients.id))
    .limit(40)
  let n = 0
  const lead = () => leadRows[n++ % Math.max(leadRows.length, 1)]
  const patient = () => patientRows[n++ % Math.max(patientRows.length, 1)]
  const record = (userId: string, type: ActivityType, at: number, data = {}) =>
    recordActivity(tx, { hospitalId: h.id, userId, type, at: new Date(at), data })

  for (const s of demoStaff) {
    const steps = patterns[s.role] ?? []
    for (let day = PAST_DAYS; day >= 0; day--) {
      // Today: the pattern ends a few minutes before seed time (so the board looks alive);
      // earlier days start at about 09:00 IST and end with a sign-out.
      const total = steps.reduce((sum, step) => sum + step.gap, 0)
      const lastToday =
        now.getTime() - (s.role === 'viewer' ? 40 : s.role === 'admin' ? 7 : 1) * MIN
      let at =
        day === 0
          ? lastToday - total * MIN
          : nineAm(now, day) + ((startAt[s.role] ?? 0) + (day % 3) * 5) * MIN
      let callLead: { id: string; name: string } | undefined
      let callId: string | null = null
      for (const step of steps) {
        at += step.gap * MIN
        if (step.type === 'call_start') {
          callLead = lead()
          if (!callLead) continue
          const started = await record(s.id, 'call_start', at, {
            leadId: callLead.id,
            leadName: callLead.name,
          })
          callId = started?.id ?? null
        } else if (step.type === 'call_end') {
          if (!callLead || !callId) continue
          await recordActivity(tx, {
            hospitalId: h.id,
            userId: s.id,
            type: 'call_end',
            at: new Date(at),
            data: {
              leadId: callLead.id,
              leadName: callLead.name,
              callId,
              durationSeconds: step.gap * 60 - 20,
            },
            dedupeKey: `call_end:${callId}`,
          })
          callId = null
        } else if (step.type === 'sms_sent' || step.type === 'email_sent') {
          const l = lead()
          const channel = step.type === 'sms_sent' ? 'sms' : 'email'
          await record(s.id, step.type, at, {
            channel,
            leadId: l?.id ?? null,
            leadName: l?.name ?? null,
          })
        } else if (step.type === 'patient_added' || step.type === 'appointment_scheduled') {
          const p = patient()
          await record(s.id, step.type, at, {
            patientId: p?.id ?? null,
            patientName: p?.name ?? null,
            ...(step.type === 'appointment_scheduled' ? { source: 'staff' } : {}),
          })
        } else {
          await record(s.id, step.type, at)
        }
      }
      if (day > 0) await record(s.id, 'logout', at + 25 * MIN)
    }
    // Presence now: everyone but the viewer is signed in; the admin a few minutes idle.
    const last = now.getTime() - (s.role === 'viewer' ? 40 : s.role === 'admin' ? 7 : 1) * MIN
    const total = steps.reduce((sum, step) => sum + step.gap, 0)
    await tx.insert(userPresence).values({
      hospitalId: h.id,
      userId: s.id,
      isOnline: s.role !== 'viewer',
      lastActivity: new Date(last),
      loginTime: new Date(last - total * MIN),
    })
  }
  // The nurse is on a call right now (a call_start without a later call_end).
  const desk = demoStaff.find((s) => s.role === 'nurse')
  const l = lead()
  if (desk && l)
    await record(desk.id, 'call_start', now.getTime() - 2 * MIN, { leadId: l.id, leadName: l.name })
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return true
}
