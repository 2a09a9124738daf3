import { TZDate } from '@date-fns/tz'
import { asc, eq, gte, sql } from 'drizzle-orm'
import type { ActivityType } from '../../../shared/live-monitoring'
import { defaultWorkingHours, type WorkingHours } from '../../../shared/scheduling'
import { recordActivity } from '../../modules/live-monitoring/activity'
import { markOffline, markOnline } from '../../modules/live-monitoring/presence'
import { appointments } from '../schema/appointments'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { leads } from '../schema/leads'
import { activities } from '../schema/live-monitoring'
import { demoLeadPicker, writeDemoCall } from './calls'
import { patients } from '../schema/patients'

/*
 * Live Monitoring demo data (issue 29, docs/decisions/040; issue 40) for the first demo
 * hospital: a working week of its staff's activities, written through recordActivity like the
 * real ones, inside the hospital's working hours in its zone (nobody signs in at 2 AM): a
 * sign-in, calls on seeded leads (each ended), SMS and emails, a sign-out at the end of the
 * shift; the patients registered and the appointments booked these days appear at the moment
 * their rows say. Presence is written through markOnline/markOffline: whoever's shift is on at
 * seed time is online, and goes away and offline as the clock moves on, as a real one would.
 * Runs in the seed's transaction; leaves the role as it found it (the connecting role).
 */

const MIN = 60_000
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
      { type: 'email_sent', gap: 7 },
    ]).flat(),
  ],
  nurse: [
    { type: 'login', gap: 0 },
    { type: 'sms_sent', gap: 12 },
    { type: 'call_start', gap: 9 },
    { type: 'call_end', gap: 5 },
    { type: 'sms_sent', gap: 11 },
    { type: 'call_start', gap: 10 },
    { type: 'call_end', gap: 6 },
    { type: 'sms_sent', gap: 14 },
  ],
  doctor: [
    { type: 'login', gap: 0 },
    { type: 'email_sent', gap: 40 },
    { type: 'email_sent', gap: 95 },
  ],
  admin: [
    { type: 'login', gap: 0 },
    { type: 'email_sent', gap: 15 },
    { type: 'email_sent', gap: 21 },
  ],
  viewer: [{ type: 'login', gap: 0 }],
}

/** When each role's shift starts and ends (minutes after midnight, hospital zone). */
const shifts: Record<string, [number, number]> = {
  receptionist: [8 * 60 + 45, 17 * 60 + 45],
  nurse: [9 * 60, 17 * 60],
  doctor: [9 * 60 + 30, 17 * 60 + 30],
  admin: [10 * 60, 18 * 60],
  viewer: [11 * 60, 12 * 60 + 30],
}

type Staff = { id: string; role: string; email: string }
type Named = { id: string; name: string }

/** A wall-clock moment `minutes` after midnight of the day `daysAgo` before `now`, in `zone`. */
function at(now: Date, daysAgo: number, minutes: number, zone: string): number {
  const today = new TZDate(now.getTime(), zone)
  return new TZDate(
    today.getFullYear(),
    today.getMonth(),
    today.getDate() - daysAgo,
    Math.floor(minutes / 60),
    minutes % 60,
    0,
    0,
    zone,
  ).getTime()
}

interface DayCtx {
  tx: Tx
  hospitalId: string
  zone: string
  /** The demo calls written so far (their plan goes round callPlan). */
  callsMade: number
  now: Date
  lead: () => Named | undefined
  /** The lead a member calls at a moment (seed/calls.ts demoLeadPicker). */
  callee: (userId: string, at: number) => Named | undefined
}

/** One demo call from `call.at` to `endsAt` (seed/calls.ts writeDemoCall, issue 41). */
async function pastCall(c: DayCtx, s: Staff, call: { lead: Named; at: number }, endsAt: number) {
  const n = c.callsMade++
  const talk = Math.max(20, Math.round((endsAt - call.at) / 1000) - (8 + (n % 4) * 5))
  await writeDemoCall(
    c.tx,
    { hospitalId: c.hospitalId, zone: c.zone, userId: s.id, leadId: call.lead.id, n },
    call.at,
    talk,
  )
}

/** One member's day from `start`: the steps that have happened by `now`; the last moment. */
async function memberDay(c: DayCtx, s: Staff, start: number, end: number): Promise<number> {
  const record = (type: ActivityType, t: number, data = {}, dedupeKey?: string) =>
    recordActivity(c.tx, {
      hospitalId: c.hospitalId,
      userId: s.id,
      type,
      at: new Date(t),
      data,
      ...(dedupeKey ? { dedupeKey } : {}),
    })
  const before = (t: number) => t < c.now.getTime() && t < end
  let t = start
  let last = start
  let call: { lead: Named; at: number } | null = null
  for (const step of patterns[s.role] ?? []) {
    t += step.gap * MIN
    if (!before(t)) break
    if (step.type === 'call_start') {
      const l = c.callee(s.id, t)
      call = l ? { lead: l, at: t } : null
      if (!call) continue
    } else if (step.type === 'call_end') {
      if (!call) continue
      await pastCall(c, s, call, t)
      call = null
    } else if (step.type === 'sms_sent' || step.type === 'email_sent') {
      const l = c.lead()
      await record(step.type, t, {
        channel: step.type === 'sms_sent' ? 'sms' : 'email',
        leadId: l?.id ?? null,
        leadName: l?.name ?? null,
      })
    } else await record(step.type, t)
    last = t
  }
  // A call is never left open: it ends a few minutes after it started.
  if (call) {
    const ended = Math.max(call.at + 2 * MIN, Math.min(t, c.now.getTime() - MIN))
    await pastCall(c, s, call, ended)
    last = ended
  }
  if (end < c.now.getTime()) {
    await record('logout', end)
    return end
  }
  return last
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
    .select({
      id: hospitals.id,
      timeZone: hospitals.timeZone,
      workingHours: hospitals.workingHours,
    })
    .from(hospitals)
    .where(eq(hospitals.email, first.email))
  if (!h) return false
  const staff = await tx
    .select({ id: user.id, role: user.role, email: user.email })
    .from(user)
    .where(eq(user.hospitalId, h.id))
  // One member per role (the role's own demo account): the specialists keep to their OPD.
  const demoStaff = staff.filter(
    (s) => s.email === `${s.role}@${first.key}.demo` && patterns[s.role],
  )
  if (!demoStaff.length) return false
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${h.id}, true)`,
  )
  const [any] = await tx.select({ id: activities.id }).from(activities).limit(1)
  if (any) {
    await tx.execute(sql`select set_config('role', 'none', true)`)
    return false
  }
  const zone = h.timeZone
  const hours: WorkingHours = h.workingHours ?? defaultWorkingHours
  const leadRows = await tx
    .select({ id: leads.id, name: leads.name })
    .from(leads)
    .orderBy(asc(leads.createdAt), asc(leads.id))
    .limit(40)
  let n = 0
  const c: DayCtx = {
    tx,
    hospitalId: h.id,
    zone,
    callsMade: 0,
    now,
    lead: () => leadRows[n++ % Math.max(leadRows.length, 1)],
    callee: await demoLeadPicker(tx),
  }
  const lastSeen = new Map<string, { login: number; last: number; out: boolean }>()
  for (let day = PAST_DAYS; day >= 0; day--) {
    const weekday = new TZDate(at(now, day, 12 * 60, zone), zone).getDay()
    const open = hours[String(weekday) as keyof WorkingHours]
    if (!open) continue
    for (const s of demoStaff) {
      const [from, to] = shifts[s.role] ?? [9 * 60, 17 * 60]
      const start = at(now, day, from + (day % 3) * 5, zone)
      if (start >= now.getTime()) continue
      const last = await memberDay(c, s, start, at(now, day, to, zone))
      lastSeen.set(s.id, { login: start, last, out: last >= at(now, day, to, zone) })
    }
  }
  // The patients registered and the appointments booked these days, when their rows say.
  const since = new Date(at(now, PAST_DAYS, 0, zone))
  const desk = demoStaff.find((s) => s.role === 'receptionist')
  if (desk) {
    const added = await tx
      .select({ id: patients.id, name: patients.name, createdAt: patients.createdAt })
      .from(patients)
      .where(gte(patients.createdAt, since))
    // Only what the desk did in its shift: a patient a lead became overnight was not added by
    // the receptionist at 3 AM.
    const inShift = (d: Date) => {
      const local = new TZDate(d.getTime(), zone)
      const m = local.getHours() * 60 + local.getMinutes()
      return m >= 8 * 60 && m <= 21 * 60
    }
    for (const p of added.filter((x) => inShift(x.createdAt)))
      await recordActivity(tx, {
        hospitalId: h.id,
        userId: desk.id,
        type: 'patient_added',
        at: p.createdAt,
        data: { patientId: p.id, patientName: p.name },
      })
    const booked = await tx
      .select({
        id: appointments.id,
        createdAt: appointments.createdAt,
        createdBy: appointments.createdBy,
        doctorId: appointments.doctorId,
        patientId: appointments.patientId,
        patientName: patients.name,
        serviceType: appointments.serviceType,
        startsAt: appointments.startsAt,
        source: appointments.source,
      })
      .from(appointments)
      .innerJoin(patients, eq(patients.id, appointments.patientId))
      .where(gte(appointments.createdAt, since))
    // A patient's own online booking was done by no member of staff (issue 40 item 14).
    for (const a of booked) {
      if (a.source === 'online' || !a.createdBy || !inShift(a.createdAt)) continue
      await recordActivity(tx, {
        hospitalId: h.id,
        userId: a.createdBy,
        type: 'appointment_scheduled',
        at: a.createdAt,
        data: {
          appointmentId: a.id,
          patientId: a.patientId,
          patientName: a.patientName,
          serviceType: a.serviceType,
          startsAt: a.startsAt.toISOString(),
          source: a.source,
        },
      })
    }
  }
  // Presence as sign-in, activity and sign-out write it.
  for (const s of demoStaff) {
    const seen = lastSeen.get(s.id)
    if (!seen) continue
    await markOnline(tx, { hospitalId: h.id, userId: s.id, at: new Date(seen.login), login: true })
    await markOnline(tx, { hospitalId: h.id, userId: s.id, at: new Date(seen.last) })
    if (seen.out) await markOffline(tx, { hospitalId: h.id, userId: s.id })
  }
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return true
}
