import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import type { AppDb } from '../../src/server/db/client'
import { revealBookingCode } from '../../src/server/modules/booking/booking-code'
import { hospitalCodesKey } from '../../src/server/modules/booking/booking-limits'
import type { BookingPage, BookingSlots } from '../../src/shared/schemas/booking'
import { browserHeaders } from './login'
import { type DemoHospital, hospitalIdOf, queryRows, type TestApp } from './test-app'

/** The public booking page's tests (tests/integration/booking*.api.test.ts). */

let ipSeq = 1
/** A fresh client address: the per-IP limits are real. */
export const freshIp = () => `10.77.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`

let mobileSeq = Math.floor(Math.random() * 1_000_000)
/** A fresh Indian mobile ('98' + 8 digits): the per-mobile limits are real. */
export const freshMobile = () => `98${String(mobileSeq++ % 100_000_000).padStart(8, '0')}`

export const e164 = (mobile: string) => `+91${mobile.replace(/\D/g, '').slice(-10)}`

export interface BookingFixture {
  hospitalId: string
  slug: string
  /** Two doctors added for the test, offered by the page (nobody else is). */
  doctors: [string, string]
}

/** A doctor of the hospital (a users row, as the admin plugin would add). */
export async function addDoctor(db: AppDb, hospitalId: string, name: string): Promise<string> {
  const id = randomUUID()
  await db.execute(sql`
    insert into users (id, name, email, email_verified, role, hospital_id)
    values (${id}, ${name}, ${`${id}@doctors.test`}, true, 'doctor', ${hospitalId})`)
  return id
}

export async function setBookingPage(
  db: AppDb,
  hospitalId: string,
  page: { enabled: boolean; doctorIds?: string[] },
): Promise<void> {
  const ids = `{${(page.doctorIds ?? []).join(',')}}`
  await db.execute(sql`
    insert into booking_settings (hospital_id, enabled, doctor_ids)
    values (${hospitalId}, ${page.enabled}, ${ids}::uuid[])
    on conflict (hospital_id) do update set enabled = excluded.enabled,
      doctor_ids = excluded.doctor_ids`)
}

export async function slugOf(db: AppDb, hospitalId: string): Promise<string> {
  const [row] = await queryRows<{ slug: string }>(
    db,
    sql`select slug from hospitals where id = ${hospitalId}`,
  )
  if (!row) throw new Error('no slug')
  return row.slug
}

/** The demo hospital's page on, offering two new doctors only. */
export async function bookingFixture(
  t: TestApp,
  hospital: DemoHospital = 'sanjeevani',
  names: [string, string] = ['Dr. Meera Kulkarni', 'Dr. Arjun Shetty'],
): Promise<BookingFixture> {
  const hospitalId = await hospitalIdOf(t.db, hospital)
  const doctors: [string, string] = [
    await addDoctor(t.db, hospitalId, names[0]),
    await addDoctor(t.db, hospitalId, names[1]),
  ]
  await setBookingPage(t.db, hospitalId, { enabled: true, doctorIds: doctors })
  return { hospitalId, slug: await slugOf(t.db, hospitalId), doctors }
}

export function publicGet(t: TestApp, url: string, ip = freshIp()) {
  return t.app.inject({ method: 'GET', url, remoteAddress: ip })
}

export function publicPost(t: TestApp, url: string, payload: unknown, ip = freshIp()) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: browserHeaders(),
    payload: payload as object,
    remoteAddress: ip,
  })
}

export async function getPage(t: TestApp, slug: string): Promise<BookingPage> {
  const res = await publicGet(t, `/api/public/booking/${slug}`)
  if (res.statusCode !== 200) throw new Error(`page: ${res.statusCode} ${res.body}`)
  return res.json<BookingPage>()
}

export async function getSlots(
  t: TestApp,
  slug: string,
  q: { serviceId: string; doctorId: string; date: string },
): Promise<BookingSlots> {
  const res = await publicGet(
    t,
    `/api/public/booking/${slug}/slots?serviceId=${q.serviceId}&doctorId=${q.doctorId}&date=${q.date}`,
  )
  if (res.statusCode !== 200) throw new Error(`slots: ${res.statusCode} ${res.body}`)
  return res.json<BookingSlots>()
}

/** The first open day after today (today's slots may all have passed). */
export function laterOpenDay(page: BookingPage, skip = 0): string {
  const open = page.days.slice(1).filter((d) => d.open)
  const day = open[skip]
  if (!day) throw new Error('no open day')
  return day.date
}

export function serviceNamed(page: BookingPage, name: string) {
  const service = page.services.find((s) => s.name === name)
  if (!service) throw new Error(`no bookable service ${name}`)
  return service
}

export interface HoldRequest {
  serviceId: string
  doctorId: string | null
  startsAt: string
  name?: string
  phone?: string
  channel?: 'whatsapp' | 'sms'
}

export function postHold(
  t: TestApp,
  slug: string,
  r: HoldRequest,
  ip = freshIp(),
): Promise<LightMyRequestResponse> {
  return publicPost(
    t,
    `/api/public/booking/${slug}/holds`,
    { name: 'Priya Deshmukh', phone: freshMobile(), channel: 'sms', ...r },
    ip,
  )
}

export function postConfirm(
  t: TestApp,
  slug: string,
  holdId: string,
  code: string,
  ip = freshIp(),
): Promise<LightMyRequestResponse> {
  return publicPost(t, `/api/public/booking/${slug}/holds/${holdId}/confirm`, { code }, ip)
}

/**
 * The code of the message queued for a hold, as the send job puts it back into the stored
 * (masked) text with the secrets keyring, and an admin's development Sandbox Outbox shows it.
 */
export async function codeOf(db: AppDb, holdId: string): Promise<string> {
  const [row] = await queryRows<{
    hospital_id: string
    content: string
    metadata: Record<string, unknown>
  }>(
    db,
    sql`select hospital_id, content, metadata from communications where booking_hold_id = ${holdId}`,
  )
  if (!row) throw new Error(`no code message for hold ${holdId}`)
  const text = revealBookingCode({
    hospitalId: row.hospital_id,
    bookingHoldId: holdId,
    content: row.content,
    metadata: row.metadata,
  })
  const code = /^(\d{6}) is your code/.exec(text)?.[1]
  if (!code) throw new Error(`no code in the message of hold ${holdId}`)
  return code
}

/** Starts the hospital's hourly count of codes afresh (tests that send many). */
export async function resetHospitalCodes(db: AppDb, hospitalId: string): Promise<void> {
  await db.execute(sql`delete from rate_limit_hits where key = ${hospitalCodesKey(hospitalId)}`)
}

/** Another 6-digit code than `code`. */
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
