import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { TZDate } from '@date-fns/tz'
import { defaultWorkingHours, type WorkingHours } from '../../../shared/scheduling'
import type { AppointmentStatus } from '../../../shared/scheduling'
import { storedDedupeKey } from '../../jobs/queue'
import type { HospitalContext } from '../../modules/appointments/context'
import { offsetsOf, reminderJob, reminderMessage } from '../../modules/appointments/reminders'
import { optedOut } from '../../modules/messaging/consent'
import { addressFor } from '../../modules/messaging/rules'
import { jobs } from '../schema/jobs'
import { reminders } from '../schema/messaging'
import type { Tx } from '../client'
import { appointments, services } from '../schema/appointments'
import { user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { patients } from '../schema/patients'
import type { DemoHospital } from './demo'
import { createRng, pick, type Rng } from './patients'

/*
 * The demo's appointments (issue 26): per demo hospital a fortnight around today (7 days back,
 * 7 ahead) for each of its doctors, inside the working hours in the hospital's zone, one after
 * another (never overlapping), statuses that fit the time, services from its catalogue, notes a
 * clinic in India would write, a few booked online, and reminders for the ones still ahead.
 */

const generalNotes = [
  'Fever and body ache since 3 days',
  'BP review; bring home BP readings',
  'Fasting blood sugar report to be reviewed',
  'Diabetes follow-up, HbA1c awaited',
  'Knee pain while climbing stairs',
  'Cough and cold, child aged 6',
  'Thyroid (TSH) report review',
  'Acidity and gastric trouble after meals',
  'Pre-employment medical check-up',
  'Bring previous prescriptions and reports',
  'Migraine, headache since a week',
  'Post-COVID breathlessness follow-up',
]
const dentalNotes = [
  'Pain in lower left molar',
  'Sensitivity to cold water',
  'Bleeding gums while brushing',
  'Braces adjustment, 4th sitting',
  'RCT second sitting',
  'Scaling and polishing due',
  'Wisdom tooth pain, X-ray advised',
  'Child, first dental check-up',
  'Crown fitting after RCT',
  'Loose filling in upper molar',
]
const cancelReasons = [
  'Patient travelling out of town',
  'Patient called to reschedule',
  'Feeling better, will call back',
  'Doctor on leave',
  'Clash with office timings',
]

interface Slot {
  start: Date
  minutes: number
  serviceId: string
  serviceType: string
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number]
  return h * 60 + m
}

/** One doctor's day: appointments one after another with gaps, inside the opening hours. */
function daySlots(
  rng: Rng,
  day: { y: number; m: number; d: number },
  hours: [string, string],
  catalogue: { id: string; name: string; durationMinutes: number }[],
  timeZone: string,
): Slot[] {
  const slots: Slot[] = []
  let at = minutesOf(hours[0]) + pick(rng, [0, 15, 30])
  const close = minutesOf(hours[1])
  // A lunch break of an hour around 13:30.
  const lunch = [13 * 60 + 30, 14 * 60 + 30]
  while (at < close) {
    const service = pick(rng, catalogue)
    const minutes = service.durationMinutes
    if (at + minutes > close) break
    if (at < (lunch[1] ?? 0) && at + minutes > (lunch[0] ?? 0)) {
      at = lunch[1] ?? at + 60
      continue
    }
    if (rng() < 0.55) {
      const start = new TZDate(
        day.y,
        day.m - 1,
        day.d,
        Math.floor(at / 60),
        at % 60,
        0,
        0,
        timeZone,
      )
      slots.push({
        start: new Date(start.getTime()),
        minutes,
        serviceId: service.id,
        serviceType: service.name,
      })
      at += minutes
    }
    at += pick(rng, [0, 0, 15, 15, 30, 45])
  }
  return slots
}

interface Booked {
  id: string
  patientId: string
  doctorId: string
  startsAt: Date
  serviceType: string
  status: AppointmentStatus
}

/**
 * Reminders of the seeded appointments still ahead, as a booking schedules them (the patient's
 * preferred channel, each offset still in the future, a job at its due time), in a few
 * statements rather than a few per appointment.
 */
async function seedReminders(
  tx: Tx,
  hospitalId: string,
  booked: Booked[],
  ctx: { hospital: HospitalContext; doctors: { id: string; name: string }[]; now: Date },
) {
  const ahead = booked.filter(
    (a) =>
      (a.status === 'scheduled' || a.status === 'confirmed') &&
      a.startsAt.getTime() > ctx.now.getTime(),
  )
  if (!ahead.length) return
  const people = await tx
    .select({ id: patients.id, name: patients.name, phone: patients.phone, email: patients.email })
    .from(patients)
    .where(inArray(patients.id, [...new Set(ahead.map((a) => a.patientId))]))
  const addresses = (channel: 'whatsapp' | 'sms' | 'email') =>
    people.flatMap((p) => {
      const target = addressFor(channel, p)
      return 'skip' in target ? [] : [target.address]
    })
  const out = {
    whatsapp: await optedOut(tx, 'whatsapp', addresses('whatsapp')),
    sms: await optedOut(tx, 'sms', addresses('sms')),
    email: await optedOut(tx, 'email', addresses('email')),
  }
  const values: (typeof reminders.$inferInsert)[] = []
  for (const a of ahead) {
    const p = people.find((x) => x.id === a.patientId)
    if (!p) continue
    const channel = (['whatsapp', 'sms', 'email'] as const).find((c) => {
      const target = addressFor(c, p)
      return !('skip' in target) && !out[c].has(target.address)
    })
    if (!channel) continue
    const doctorName = ctx.doctors.find((d) => d.id === a.doctorId)?.name ?? null
    const message = reminderMessage({ ...a, doctorName, patientName: p.name }, ctx.hospital)
    for (const offset of offsetsOf(ctx.hospital)) {
      const dueAt = new Date(a.startsAt.getTime() - offset * 60_000)
      if (dueAt.getTime() <= ctx.now.getTime()) continue
      values.push({
        hospitalId,
        type: 'appointment',
        message,
        status: 'pending',
        channel,
        patientId: p.id,
        dueAt,
        appointmentId: a.id,
        offsetMinutes: offset,
      })
    }
  }
  if (!values.length) return
  const rows = await tx
    .insert(reminders)
    .values(values)
    .returning({ id: reminders.id, dueAt: reminders.dueAt })
  await tx
    .insert(jobs)
    .values(
      rows.map((r) => {
        const job = reminderJob(hospitalId, r.id, r.dueAt)
        return { ...job, dedupeKey: storedDedupeKey(hospitalId, job.dedupeKey) }
      }),
    )
    .onConflictDoNothing()
}

/** A status that fits the time: closed in the past, open ahead, a few cancelled either way. */
function statusOf(rng: Rng, start: Date, end: Date, now: Date): AppointmentStatus {
  const r = rng()
  if (end.getTime() <= now.getTime()) {
    if (r < 0.1) return 'cancelled'
    if (r < 0.18) return 'no-show'
    return 'completed'
  }
  if (r < 0.05) return 'cancelled'
  const soon = start.getTime() - now.getTime() < 2 * 86_400_000
  return rng() < (soon ? 0.6 : 0.25) ? 'confirmed' : 'scheduled'
}

export async function seedDemoAppointments(
  tx: Tx,
  demo: readonly DemoHospital[],
  now: Date,
): Promise<boolean> {
  await tx.execute(sql`set local role none`)
  const rows = await tx
    .select({
      id: hospitals.id,
      email: hospitals.email,
      name: hospitals.name,
      timeZone: hospitals.timeZone,
      workingHours: hospitals.workingHours,
      reminderOffsets: hospitals.reminderOffsets,
    })
    .from(hospitals)
    .where(
      inArray(
        hospitals.email,
        demo.map((h) => h.email),
      ),
    )
  const doctors = rows.length
    ? await tx
        .select({ id: user.id, name: user.name, hospitalId: user.hospitalId })
        .from(user)
        .where(
          and(
            inArray(
              user.hospitalId,
              rows.map((r) => r.id),
            ),
            eq(user.role, 'doctor'),
            eq(user.isActive, true),
          ),
        )
        .orderBy(asc(user.email))
    : []
  let changed = false
  for (const [index, h] of demo.entries()) {
    const row = rows.find((r) => r.email === h.email)
    const own = doctors.filter((d) => d.hospitalId === row?.id)
    if (!row || !own.length) continue
    await tx.execute(
      sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${row.id}, true)`,
    )
    const [done] = await tx.select({ id: appointments.id }).from(appointments).limit(1)
    if (done) continue
    const catalogue = await tx
      .select({ id: services.id, name: services.name, durationMinutes: services.durationMinutes })
      .from(services)
      .where(eq(services.active, true))
    const people = await tx
      .select({ id: patients.id })
      .from(patients)
      .orderBy(asc(patients.createdAt), asc(patients.id))
      .limit(200)
    if (!catalogue.length || !people.length) continue
    const rng = createRng(2626 + index)
    const notes = h.clinic === 'dental' ? dentalNotes : generalNotes
    const hours: WorkingHours = row.workingHours ?? defaultWorkingHours
    const today = new TZDate(now.getTime(), row.timeZone)
    const values: (typeof appointments.$inferInsert)[] = []
    for (let offset = -7; offset <= 7; offset++) {
      const day = new TZDate(
        today.getFullYear(),
        today.getMonth(),
        today.getDate() + offset,
        12,
        0,
        0,
        0,
        row.timeZone,
      )
      const open = hours[String(day.getDay()) as keyof WorkingHours]
      if (!open) continue
      const ymd = { y: day.getFullYear(), m: day.getMonth() + 1, d: day.getDate() }
      for (const doctor of own) {
        for (const slot of daySlots(rng, ymd, open, catalogue, row.timeZone)) {
          const endsAt = new Date(slot.start.getTime() + slot.minutes * 60_000)
          const status = statusOf(rng, slot.start, endsAt, now)
          const online = rng() < 0.1
          values.push({
            hospitalId: row.id,
            patientId: pick(rng, people).id,
            doctorId: doctor.id,
            serviceId: slot.serviceId,
            serviceType: slot.serviceType,
            startsAt: slot.start,
            endsAt,
            durationMinutes: slot.minutes,
            status,
            source: online ? 'online' : 'staff',
            notes: rng() < 0.6 ? pick(rng, notes) : null,
            cancelReason: status === 'cancelled' ? pick(rng, cancelReasons) : null,
            createdAt: new Date(
              Math.min(now.getTime(), slot.start.getTime()) -
                (1 + Math.floor(rng() * 10)) * 86_400_000,
            ),
            statusChangedAt: status === 'scheduled' ? undefined : now,
          })
        }
      }
    }
    if (!values.length) continue
    const inserted = await tx.insert(appointments).values(values).returning({
      id: appointments.id,
      patientId: appointments.patientId,
      doctorId: appointments.doctorId,
      startsAt: appointments.startsAt,
      serviceType: appointments.serviceType,
      status: appointments.status,
    })
    const hospital = {
      name: row.name.split(',')[0] ?? row.name,
      timeZone: row.timeZone,
      workingHours: hours,
      reminderOffsets: row.reminderOffsets,
    }
    await seedReminders(tx, row.id, inserted, { hospital, doctors: own, now })
    changed = true
  }
  await tx.execute(sql`set local role none`)
  return changed
}
