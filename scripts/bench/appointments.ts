// The appointments part (issue 26): GET /api/appointments?from&to for one week (the calendar's
// week view) over N appointments in one hospital (default 100,000; BENCH_APPOINTMENTS), spread
// over three years across 20 doctors like a busy clinic's history (about 640 in the week,
// limit 500), p50/p99 of sequential requests at 1 connection through the real app, with the raw
// SQL of the same read beside it (one tenant transaction, no HTTP, no JSON). On PostgreSQL when
// it answers (config.serverUrl), else PGlite.
//
//   npx tsx scripts/bench/appointments.ts                              this part alone
//   BENCH_APPOINTMENTS=20000 npx tsx scripts/bench/appointments.ts     fewer appointments
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { withTenant } from '../../src/server/db/tenant'
import { call } from '../../tests/support/appointments'
import { login } from '../../tests/support/login'
import { createTestApp, demoEmail, hospitalIdOf, queryRows } from '../../tests/support/test-app'
import { config } from './config'
import { percentile } from './load'
import { postgresAnswers } from './postgres'

export interface AppointmentsResult {
  driver: 'postgres' | 'pglite'
  appointments: number
  inWeek: number
  week: { p50: number; p99: number; sqlP50: number; sqlP99: number }
}

const DOCTORS = 20
const YEARS = 3

async function timed(runs: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) }
}

export async function benchAppointments(log: (line: string) => void): Promise<AppointmentsResult> {
  const n = Number(process.env.BENCH_APPOINTMENTS ?? 100_000)
  const runs = Number(process.env.BENCH_APPOINTMENTS_RUNS ?? 300)
  const onPostgres = await postgresAnswers()
  if (onPostgres) process.env.TEST_DATABASE_URL ??= config.serverUrl
  const t = await createTestApp({ logLevel: 'warn' })
  try {
    const h = await hospitalIdOf(t.db, 'sanjeevani')
    const cookie = await login(t.app, demoEmail('receptionist'))
    const doctors = Array.from({ length: DOCTORS }, () => randomUUID())
    for (const [i, id] of doctors.entries()) {
      await queryRows(
        t.db,
        sql`insert into users (id, name, email, email_verified, role, hospital_id)
            values (${id}, ${`Dr. Bench Doctor ${i + 1}`}, ${`${id}@bench.test`}, true, 'doctor', ${h})`,
      )
    }
    const doctorArray = `{${doctors.join(',')}}`
    // Each doctor's appointments one after another, evenly over the last YEARS years and the next
    // weeks (never overlapping: one every `step` minutes per doctor), statuses mixed.
    const perDoctor = Math.ceil(n / DOCTORS)
    const step = Math.floor((YEARS * 365 * 24 * 60) / perDoctor)
    const t0 = performance.now()
    await queryRows(
      t.db,
      sql`insert into appointments (hospital_id, patient_id, doctor_id, service_type, starts_at,
            ends_at, duration_minutes, status, source)
          with p as (select array_agg(id) as ids from (select id from patients
            where hospital_id = ${h} order by id limit 50) x)
          select ${h}, p.ids[1 + g % array_length(p.ids, 1)], (${doctorArray}::uuid[])[1 + g % ${DOCTORS}], 'OPD consultation', s.at,
            s.at + interval '30 minutes', 30,
            case when s.at < now() then (array['completed','completed','completed','no-show','cancelled'])[1 + g % 5]
                 else (array['scheduled','confirmed'])[1 + g % 2] end,
            case when g % 10 = 0 then 'online' else 'staff' end
          from p, generate_series(0, ${n - 1}) g
          cross join lateral (select now() - make_interval(days => ${YEARS * 365 - 14})
            + make_interval(mins => (g / ${DOCTORS}) * ${step}) + make_interval(mins => (g % ${DOCTORS}) * 7) as at) s`,
    )
    await queryRows(t.db, sql`analyze appointments`)
    log(
      `  ${n.toLocaleString('en-IN')} appointments inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s (${onPostgres ? 'PostgreSQL' : 'PGlite'})`,
    )
    const from = new Date(Date.now() - 3 * 86_400_000)
    const to = new Date(from.getTime() + 7 * 86_400_000)
    const url = `/api/appointments?from=${from.toISOString()}&to=${to.toISOString()}&limit=500`
    const get = async () => {
      const res = await call(t, cookie, 'GET', url)
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
      return res
    }
    const inWeek = (await get()).json<unknown[]>().length
    const ctx = { hospitalId: h, userId: null }
    const raw = () =>
      withTenant(t.db, ctx, (tx) =>
        tx.execute(sql`select a.id, a.patient_id, p.name, p.phone, a.doctor_id, a.service_id,
            a.service_type, a.starts_at, a.ends_at, a.duration_minutes, a.status, a.source,
            a.lead_id, a.notes, a.cancel_reason, a.created_at, a.updated_at
          from appointments a join patients p on p.hospital_id = a.hospital_id and p.id = a.patient_id
          where a.ends_at > ${from} and a.starts_at > ${new Date(from.getTime() - 3_600_000)}
            and a.starts_at < ${to}
          order by a.starts_at, a.id limit 500`),
      )
    const http = await timed(runs, get)
    const direct = await timed(runs, raw)
    const week = { ...http, sqlP50: direct.p50, sqlP99: direct.p99 }
    log(
      `  GET /api/appointments?from&to (one week, ${inWeek} appointments): p50 ${week.p50.toFixed(2)} ms, p99 ${week.p99.toFixed(2)} ms; raw SQL p50 ${week.sqlP50.toFixed(2)} ms, p99 ${week.sqlP99.toFixed(2)} ms`,
    )
    return { driver: onPostgres ? 'postgres' : 'pglite', appointments: n, inWeek, week }
  } finally {
    await t.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('== Appointments (issue 26) ==')
  benchAppointments((line) => console.log(line))
    .then((r) => console.log(`appointments: ${JSON.stringify(r)}`))
    .catch((error: unknown) => {
      console.error(error)
      process.exitCode = 1
    })
}
