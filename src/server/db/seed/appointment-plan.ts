import { TZDate } from '@date-fns/tz'
import type { AppointmentStatus, WorkingHours } from '../../../shared/scheduling'
import type { DemoDoctorPlan, Specialty } from './demo-staff'
import { pick, type Rng } from './patients'

/*
 * The demo's appointments as a plan, from the rows alone (no database), so the seed-rules tests
 * can check them: per doctor the days and hours of their OPD (demo-staff.ts) inside the
 * hospital's working hours and zone, one after another with a lunch break, services of their
 * specialty, patients that fit it (children for paediatrics, women for gynaecology) and that were
 * registered before the appointment was booked, statuses that fit the time (completed or no-show
 * only once started, scheduled or confirmed only while not over).
 */

export const PAST_DAYS = 7
export const AHEAD_DAYS = 8

const notesBySpecialty: Record<Specialty, readonly string[]> = {
  'general medicine': [
    'Fever and body ache since 3 days',
    'BP review; bring home BP readings',
    'Fasting blood sugar report to be reviewed',
    'Diabetes follow-up, HbA1c awaited',
    'Thyroid (TSH) report review',
    'Acidity and gastric trouble after meals',
    'Pre-employment medical check-up',
    'Bring previous prescriptions and reports',
    'Migraine, headache since a week',
  ],
  orthopaedics: [
    'Knee pain while climbing stairs',
    'Lower back pain since a month',
    'Frozen shoulder, physiotherapy review',
    'Ankle sprain, X-ray to be reviewed',
  ],
  gynaecology: [
    'Irregular periods, ultrasound report to be reviewed',
    'Routine gynaecology check-up',
    'PCOS follow-up',
    'Pap smear due',
  ],
  paediatrics: [
    'Cough and cold since 4 days',
    'Vaccination due as per schedule',
    'Fever, not eating well',
    'Growth and weight check',
  ],
  dermatology: [
    'Acne on face, follow-up after 4 weeks',
    'Itchy rash on arms',
    'Hair fall since 3 months',
    'Dandruff and scalp itching',
  ],
  dental: [
    'Pain in lower left molar',
    'Sensitivity to cold water',
    'Bleeding gums while brushing',
    'RCT second sitting',
    'Scaling and polishing due',
    'Wisdom tooth pain, X-ray advised',
    'Child, first dental check-up',
    'Loose filling in upper molar',
  ],
  orthodontics: [
    'Braces adjustment, 4th sitting',
    'Braces consultation for crooked teeth',
    'Retainer check after braces',
  ],
}

const cancelReasons = [
  'Patient travelling out of town',
  'Patient called to reschedule',
  'Feeling better, will call back',
  'Clash with office timings',
]

export interface PlanDoctor {
  id: string
  plan: DemoDoctorPlan
}
export interface PlanPatient {
  id: string
  gender: string | null
  dateOfBirth: string | null
  createdAt: Date
}
export interface PlanService {
  id: string
  name: string
  durationMinutes: number
}
export interface PlannedAppointment {
  patientId: string
  doctorId: string
  specialty: Specialty
  serviceId: string
  serviceType: string
  startsAt: Date
  endsAt: Date
  durationMinutes: number
  status: AppointmentStatus
  source: 'staff' | 'online'
  notes: string | null
  cancelReason: string | null
  createdAt: Date
  statusChangedAt: Date | null
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number]
  return h * 60 + m
}
const DAY = 86_400_000
const MIN = 60_000

/** Whether a patient fits the specialty (on `day`, 'YYYY-MM-DD'). */
function fits(specialty: Specialty, p: PlanPatient, day: string): boolean {
  const age = p.dateOfBirth ? Number(day.slice(0, 4)) - Number(p.dateOfBirth.slice(0, 4)) : 30
  if (specialty === 'paediatrics') return age < 16
  if (specialty === 'gynaecology') return p.gender === 'female' && age >= 16
  if (specialty === 'orthodontics') return age >= 10 && age < 40
  if (specialty === 'general medicine' || specialty === 'orthopaedics') return age >= 14
  return true
}

/** A moment in clinic hours (10:00 to 18:00 in `zone`) `days` before `at`, never after `now`. */
function bookedAt(rng: Rng, at: Date, days: number, now: Date, zone: string): Date {
  for (let back = days; ; back++) {
    const day = new TZDate(at.getTime() - back * DAY, zone)
    const t = new TZDate(
      day.getFullYear(),
      day.getMonth(),
      day.getDate(),
      10 + Math.floor(rng() * 8),
      Math.floor(rng() * 4) * 15,
      0,
      0,
      zone,
    )
    if (t.getTime() < now.getTime() && t.getTime() < at.getTime()) return new Date(t.getTime())
  }
}

/** A status that fits the time: closed once started, open while not over, a few cancelled. */
function statusOf(rng: Rng, start: Date, end: Date, now: Date): AppointmentStatus {
  const r = rng()
  if (end.getTime() <= now.getTime()) {
    if (r < 0.08) return 'cancelled'
    if (r < 0.15) return 'no-show'
    return 'completed'
  }
  if (r < 0.05) return 'cancelled'
  if (start.getTime() <= now.getTime()) return 'confirmed'
  const soon = start.getTime() - now.getTime() < 2 * DAY
  return rng() < (soon ? 0.6 : 0.25) ? 'confirmed' : 'scheduled'
}

/**
 * The appointments of a fortnight and a half around `now` (PAST_DAYS back, AHEAD_DAYS ahead).
 * `density` is the share of free slots that are booked.
 */
export function planAppointments(o: {
  doctors: readonly PlanDoctor[]
  patients: readonly PlanPatient[]
  catalogue: readonly PlanService[]
  workingHours: WorkingHours
  timeZone: string
  now: Date
  rng: Rng
}): PlannedAppointment[] {
  const { rng, now, timeZone } = o
  const today = new TZDate(now.getTime(), timeZone)
  const out: PlannedAppointment[] = []
  for (let offset = -PAST_DAYS; offset <= AHEAD_DAYS; offset++) {
    const noon = new TZDate(
      today.getFullYear(),
      today.getMonth(),
      today.getDate() + offset,
      12,
      0,
      0,
      0,
      timeZone,
    )
    const open = o.workingHours[String(noon.getDay()) as keyof WorkingHours]
    if (!open) continue
    const ymd = `${noon.getFullYear()}-${String(noon.getMonth() + 1).padStart(2, '0')}-${String(noon.getDate()).padStart(2, '0')}`
    for (const doctor of o.doctors) {
      const { plan } = doctor
      if (!plan.days.includes(noon.getDay())) continue
      const services = o.catalogue.filter((s) => plan.services.includes(s.name))
      if (!services.length) continue
      // The doctor's hours, inside the hospital's.
      let at = Math.max(minutesOf(plan.hours[0]), minutesOf(open[0]))
      const close = Math.min(minutesOf(plan.hours[1]), minutesOf(open[1]))
      const density =
        plan.specialty === 'general medicine' || plan.services.length > 3 ? 0.32 : 0.22
      at += pick(rng, [0, 15, 30])
      while (at < close) {
        const service = pick(rng, services)
        const minutes = service.durationMinutes
        if (at + minutes > close) break
        // Lunch from 13:30 to 14:30.
        if (at < 14 * 60 + 30 && at + minutes > 13 * 60 + 30) {
          at = 14 * 60 + 30
          continue
        }
        if (rng() < density) {
          const start = new Date(
            new TZDate(
              noon.getFullYear(),
              noon.getMonth(),
              noon.getDate(),
              Math.floor(at / 60),
              at % 60,
              0,
              0,
              timeZone,
            ).getTime(),
          )
          const endsAt = new Date(start.getTime() + minutes * MIN)
          const online = rng() < 0.1
          const createdAt = bookedAt(rng, start, 1 + Math.floor(rng() * 9), now, timeZone)
          const candidates = o.patients.filter(
            (p) => p.createdAt.getTime() < createdAt.getTime() && fits(plan.specialty, p, ymd),
          )
          if (candidates.length) {
            const status = statusOf(rng, start, endsAt, now)
            const closedAt = new Date(Math.min(now.getTime(), endsAt.getTime() + 10 * MIN))
            out.push({
              patientId: pick(rng, candidates).id,
              doctorId: doctor.id,
              specialty: plan.specialty,
              serviceId: service.id,
              serviceType: service.name,
              startsAt: start,
              endsAt,
              durationMinutes: minutes,
              status,
              source: online ? 'online' : 'staff',
              notes: rng() < 0.6 ? pick(rng, notesBySpecialty[plan.specialty]) : null,
              cancelReason: status === 'cancelled' ? pick(rng, cancelReasons) : null,
              createdAt,
              statusChangedAt:
                status === 'completed' || status === 'no-show'
                  ? closedAt
                  : status === 'scheduled'
                    ? null
                    : new Date(
                        Math.min(
                          now.getTime(),
                          Math.max(
                            createdAt.getTime() + 30 * MIN,
                            bookedAt(rng, start, 0, now, timeZone).getTime(),
                          ),
                        ),
                      ),
            })
            at += minutes
          }
        }
        at += pick(rng, [0, 0, 15, 15, 30])
      }
    }
  }
  return out
}
