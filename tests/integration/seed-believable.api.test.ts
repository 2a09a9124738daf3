import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_SEED_LOCK_KEY, demoHospitals } from '../../src/server/db/seed/demo'
import { demoStaff } from '../../src/server/db/seed/demo-staff'
import { keepDemoCurrent } from '../../src/server/db/seed/demo-shift'
import { openTestDatabase, queryRows, type TestDatabase } from '../support/test-app'

// Issue 40 items 19 and 20: demo data a clinic would believe. Checked on the seeded database:
// real backups or none; each hospital its own staff; several doctors by specialty sharing the
// appointments inside their hours; activity in working hours (India time), no call left open;
// reminder texts naming clinic hours; dates that agree; and a demo started weeks later moved
// forward so that it has today's appointments and recent leads.

const ZONE = 'Asia/Kolkata'
let t: TestDatabase
const rows = <T>(q: ReturnType<typeof sql>) => queryRows<T>(t.database.db, q)

/** Minutes after midnight in India of an instant. */
function istMinutes(d: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(d)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return get('hour') * 60 + get('minute')
}
const istDay = (d: Date) => d.toLocaleDateString('en-CA', { timeZone: ZONE })

beforeAll(async () => {
  t = await openTestDatabase('seeded')
})
afterAll(async () => {
  await t?.drop()
})

describe('the seeded demo', () => {
  it('has no invented backup history: a daily configuration whose first run is real', async () => {
    const logs = await rows<{ n: number }>(sql`select count(*)::int as n from backup_logs`)
    expect(logs[0]?.n).toBe(0)
    const configs = await rows<{ frequency: string; last: Date | null }>(
      sql`select frequency, last_run_at as last from backup_configurations`,
    )
    expect(configs).toEqual([{ frequency: '1day', last: null }])
  })

  it('gives each hospital its own staff, the multispeciality one a doctor per specialty', async () => {
    const staff = await rows<{ email: string; name: string; role: string; created: Date }>(
      sql`select email, name, role, created_at as created from users where email like '%@%.demo' and email not like 'superadmin@%'`,
    )
    const byHospital = (key: string) => staff.filter((s) => s.email.endsWith(`@${key}.demo`))
    const [a, b] = demoHospitals.map((h) => byHospital(h.key).map((s) => s.name))
    expect(a!.filter((n) => b!.includes(n))).toEqual([])
    const doctors = byHospital('sanjeevani').filter((s) => s.role === 'doctor')
    expect(doctors.length).toBeGreaterThanOrEqual(5)
    // Joined on different days, all in the past.
    const days = new Set(staff.map((s) => istDay(new Date(s.created))))
    expect(days.size).toBeGreaterThan(staff.length / 2)
    expect(staff.every((s) => new Date(s.created).getTime() < Date.now() - 86_400_000)).toBe(true)
  })

  it('spreads the appointments over the doctors, each inside their own OPD hours', async () => {
    const list = await rows<{ email: string; starts: Date; ends: Date }>(
      sql`select u.email, a.starts_at as starts, a.ends_at as ends
          from appointments a join users u on u.id = a.doctor_id::text`,
    )
    for (const h of demoHospitals) {
      const own = list.filter((a) => a.email.endsWith(`@${h.key}.demo`))
      const doctors = new Set(own.map((a) => a.email))
      expect(doctors.size, h.key).toBe(
        (demoStaff[h.key] ?? []).filter((s) => s.role === 'doctor').length,
      )
      const busiest = Math.max(...[...doctors].map((d) => own.filter((a) => a.email === d).length))
      // No doctor holds them all: in the multispeciality hospital none more than half.
      expect(busiest / own.length, h.key).toBeLessThan(doctors.size > 2 ? 0.5 : 0.9)
    }
    for (const a of list) {
      const key = a.email.split('@')[1]!.replace('.demo', '')
      const plan = demoStaff[key]?.find((s) => `${s.local}@${key}.demo` === a.email)?.doctor
      expect(plan, a.email).toBeDefined()
      const [from, to] = plan!.hours.map((x) => Number(x.slice(0, 2)) * 60 + Number(x.slice(3)))
      const starts = new Date(a.starts)
      expect(istMinutes(starts), a.email).toBeGreaterThanOrEqual(from!)
      expect(istMinutes(new Date(a.ends)), a.email).toBeLessThanOrEqual(to!)
      expect(plan!.days).toContain(
        new Date(starts.toLocaleString('en-US', { timeZone: ZONE })).getDay(),
      )
    }
  })

  it('keeps staff activity in working hours, and leaves no call open', async () => {
    const acts = await rows<{ type: string; at: Date; user: string; data: { callId?: string } }>(
      sql`select activity_type as type, occurred_at as at, user_id as user, data from activities`,
    )
    expect(acts.length).toBeGreaterThan(50)
    for (const a of acts) {
      const m = istMinutes(new Date(a.at))
      expect(m, `${a.type} at ${new Date(a.at).toISOString()}`).toBeGreaterThanOrEqual(8 * 60)
      expect(m, `${a.type} at ${new Date(a.at).toISOString()}`).toBeLessThanOrEqual(21 * 60)
    }
    const ended = new Set(acts.filter((a) => a.type === 'call_end').map((a) => a.data.callId))
    const started = await rows<{ id: string }>(
      sql`select data ->> 'callId' as id from activities where activity_type = 'call_start'`,
    )
    expect(started.filter((s) => !ended.has(s.id))).toEqual([])
  })

  it('names appointment times in India time, within clinic hours, in reminder texts', async () => {
    const texts = await rows<{ message: string }>(
      sql`select message from reminders where appointment_id is not null`,
    )
    expect(texts.length).toBeGreaterThan(0)
    for (const { message } of texts) {
      const m = /at (\d{1,2}):(\d{2})\s?(am|pm)/i.exec(message)
      expect(m, message).not.toBeNull()
      const hour = (Number(m![1]) % 12) + (m![3]!.toLowerCase() === 'pm' ? 12 : 0)
      expect(hour, message).toBeGreaterThanOrEqual(8)
      expect(hour, message).toBeLessThan(21)
    }
  })

  it('dates agree: a patient is registered before their appointments and invoices', async () => {
    const late = await rows<{ n: number }>(
      sql`select count(*)::int as n from appointments a join patients p on p.id = a.patient_id
          where p.created_at > a.created_at or p.created_at > a.starts_at`,
    )
    expect(late[0]?.n).toBe(0)
    const billed = await rows<{ n: number }>(
      sql`select count(*)::int as n from invoices i join patients p on p.id = i.patient_id
          where p.created_at > i.created_at`,
    )
    expect(billed[0]?.n).toBe(0)
  })
})

describe('a demo started weeks later', () => {
  it('moves forward by whole weeks: today has appointments, leads are recent, once', async () => {
    const later = new Date(Date.now() + 23 * 86_400_000)
    const state = () =>
      rows<{ leads: Date; appts: number; births: string }>(
        sql`select (select max(created_at) from leads) as leads,
              (select count(*)::int from appointments) as appts,
              (select md5(string_agg(date_of_birth::text, ',' order by id)) from patients) as births`,
      )
    const before = await state()
    const shift = await keepDemoCurrent(t.database.db, demoHospitals, DEMO_SEED_LOCK_KEY, later)
    expect(Object.values(shift.moved)).toEqual(demoHospitals.map(() => 21))
    expect(shift.skipped).toEqual([])
    const after = await state()
    // Birthdays stay.
    expect(after[0]!.births).toBe(before[0]!.births)
    expect(new Date(after[0]!.leads).getTime() - new Date(before[0]!.leads).getTime()).toBe(
      21 * 86_400_000,
    )
    expect(after[0]!.appts).toBe(before[0]!.appts)
    const today = await rows<{ n: number }>(
      sql`select count(*)::int as n from appointments
          where (starts_at at time zone ${ZONE})::date = ${istDay(later)}::date`,
    )
    // A Sunday is closed; the day after is not.
    const next = await rows<{ n: number }>(
      sql`select count(*)::int as n from appointments
          where (starts_at at time zone ${ZONE})::date = ${istDay(new Date(later.getTime() + 86_400_000))}::date`,
    )
    expect(today[0]!.n + next[0]!.n).toBeGreaterThan(0)
    const again = await keepDemoCurrent(t.database.db, demoHospitals, DEMO_SEED_LOCK_KEY, later)
    expect(again.moved).toEqual({})
  })
})
