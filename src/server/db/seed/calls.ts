import { TZDate } from '@date-fns/tz'
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm'
import type { CallDisposition } from '../../../shared/calls'
import { defaultWorkingHours, type WorkingHours } from '../../../shared/scheduling'
import { AppError } from '../../http/app-error'
import { applyCallChange } from '../../modules/calls/call-progress'
import { logPastCall, type PastCall } from '../../modules/calls/past-call'
import { saveStaffPhone } from '../../modules/calls/staff-phone.service'
import { receiveIncoming } from '../../modules/calls-incoming/incoming.service'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { calls } from '../schema/calls'
import { hospitals } from '../schema/hospitals'
import { communications, leads } from '../schema/leads'

/*
 * The demo's calls (issue 41) for every demo hospital, written through the calls' own paths:
 * logPastCall for calls staff placed (the call row, call_start, its ending with the
 * Communication and call_end, its disposition) and receiveIncoming for missed calls from
 * unknown numbers, which become leads with source 'phone' as a real missed call would. Weeks
 * 2 to 4 back (the last week's calls come with Live Monitoring's activities: live-monitoring.ts),
 * inside the hospital's working days and hours, each call to a lead that had arrived by then.
 * The demo staff who may call get sandbox-verified phones.
 */

/** How the demo's calls went, in turn: mostly answered, some rang out or were busy. */
export const demoCallPlan: {
  outcome: PastCall['outcome']
  disposition?: CallDisposition
  note?: string
}[] = [
  { outcome: 'answered', disposition: 'interested', note: 'Wants the package price on WhatsApp' },
  { outcome: 'no-answer', disposition: 'not_reachable' },
  { outcome: 'answered', disposition: 'booked' },
  { outcome: 'answered', disposition: 'call_back', note: 'Call after 6 pm, at work till then' },
  { outcome: 'busy' },
  { outcome: 'answered', disposition: 'not_interested', note: 'Already treated elsewhere' },
  { outcome: 'answered' },
]

/**
 * The n-th demo call (its plan from demoCallPlan): a call-back is asked for the next day at
 * 11:00 in the hospital's zone. A lead without a callable mobile is not called.
 */
export async function writeDemoCall(
  tx: Tx,
  c: { hospitalId: string; zone: string; userId: string; leadId: string; n: number },
  startedAt: number,
  talkSeconds: number,
): Promise<void> {
  const plan = demoCallPlan[c.n % demoCallPlan.length] ?? { outcome: 'answered' as const }
  const local = new TZDate(startedAt, c.zone)
  const callBackAt = new TZDate(
    local.getFullYear(),
    local.getMonth(),
    local.getDate() + 1,
    11,
    0,
    0,
    0,
    c.zone,
  )
  try {
    await logPastCall(tx, {
      hospitalId: c.hospitalId,
      userId: c.userId,
      contact: { leadId: c.leadId },
      startedAt: new Date(startedAt),
      ringSeconds: 8 + (c.n % 4) * 5,
      outcome: plan.outcome,
      talkSeconds,
      ...(plan.disposition
        ? {
            disposition: {
              disposition: plan.disposition,
              note: plan.note ?? null,
              callBackAt: plan.disposition === 'call_back' ? new Date(callBackAt.getTime()) : null,
            },
          }
        : {}),
    })
  } catch (error) {
    if (!(error instanceof AppError)) throw error
  }
}

/** A lead's history holds at most this many messages and calls (seed-lead-rules.ts). */
const MAX_COMMUNICATIONS = 6

/**
 * Picks the lead a demo call is to: one assigned to the caller (staff call their own leads),
 * arrived before the call, not a patient yet, and with room in its history; in turn. Read in
 * the hospital's tenant transaction.
 */
export async function demoLeadPicker(tx: Tx) {
  const rows = await tx
    .select({
      id: leads.id,
      name: leads.name,
      createdAt: leads.createdAt,
      assignee: leads.assignedToUserId,
      patientId: leads.patientId,
    })
    .from(leads)
    .orderBy(asc(leads.createdAt), asc(leads.id))
  const counts = await tx
    .select({ leadId: communications.leadId, n: sql<number>`count(*)::int` })
    .from(communications)
    .groupBy(communications.leadId)
  const used = new Map(counts.map((c) => [c.leadId ?? '', Number(c.n)]))
  let turn = 0
  return (userId: string, at: number): { id: string; name: string } | undefined => {
    const fit = rows.filter(
      (r) =>
        r.assignee === userId &&
        !r.patientId &&
        r.createdAt.getTime() < at &&
        (used.get(r.id) ?? 0) < MAX_COMMUNICATIONS,
    )
    const lead = fit[turn++ % Math.max(fit.length, 1)]
    if (lead) used.set(lead.id, (used.get(lead.id) ?? 0) + 1)
    return lead
  }
}

/** When each calling role places its calls (minutes after midnight, hospital zone). */
const callTimes: Record<string, number[]> = {
  receptionist: [10 * 60 + 15, 11 * 60 + 40, 14 * 60 + 30, 16 * 60 + 10],
  nurse: [11 * 60, 15 * 60 + 20],
  doctor: [13 * 60 + 10],
}
const CALLING_ROLES = ['admin', 'doctor', 'nurse', 'receptionist']
const FIRST_DAY = 27
const LAST_DAY = 8
/** Days back of the missed calls from unknown numbers, and their time. */
const missed: [number, number][] = [
  [26, 19 * 60 + 40],
  [22, 13 * 60 + 5],
  [19, 20 * 60 + 15],
  [15, 9 * 60 + 10],
  [12, 18 * 60 + 55],
  [9, 14 * 60 + 20],
]

/** The leads the demo's missed calls from unknown numbers add to each hospital (source 'phone'). */
export const DEMO_MISSED_CALL_LEADS = missed.length

function zonedAt(now: Date, daysAgo: number, minutes: number, zone: string): number {
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

async function seedHospitalCalls(
  tx: Tx,
  demo: { key: string; email: string },
  index: number,
  now: Date,
): Promise<boolean> {
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const [h] = await tx
    .select({ id: hospitals.id, timeZone: hospitals.timeZone, hours: hospitals.workingHours })
    .from(hospitals)
    .where(eq(hospitals.email, demo.email))
  if (!h) return false
  const staff = (
    await tx
      .select({ id: user.id, name: user.name, role: user.role, email: user.email })
      .from(user)
      .where(and(eq(user.hospitalId, h.id), inArray(user.role, CALLING_ROLES)))
      .orderBy(asc(user.email))
  ).filter((s) => s.email === `${s.role}@${demo.key}.demo`)
  if (!staff.length) return false
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${h.id}, true)`,
  )
  const zone = h.timeZone
  const weekAgo = new Date(now.getTime() - LAST_DAY * 86_400_000)
  const [older] = await tx
    .select({ id: calls.id })
    .from(calls)
    .where(lt(calls.createdAt, weekAgo))
    .limit(1)
  if (older) return false
  for (const [i, s] of staff.entries()) {
    await saveStaffPhone(tx, {
      hospitalId: h.id,
      userId: s.id,
      phone: `+91982${index}0${String(41_200 + i * 7).padStart(5, '0')}`,
      verifiedAt: new Date(zonedAt(now, FIRST_DAY + 1, 10 * 60, zone)),
    })
  }
  const pick = await demoLeadPicker(tx)
  const hours: WorkingHours = h.hours ?? defaultWorkingHours
  let n = 0
  for (let day = FIRST_DAY; day >= LAST_DAY; day--) {
    const weekday = new TZDate(zonedAt(now, day, 12 * 60, zone), zone).getDay()
    if (!hours[String(weekday) as keyof WorkingHours]) continue
    for (const s of staff) {
      for (const minutes of callTimes[s.role] ?? []) {
        const at = zonedAt(now, day, minutes + (day % 3) * 7, zone)
        const lead = pick(s.id, at)
        if (!lead) continue
        await writeDemoCall(
          tx,
          { hospitalId: h.id, zone, userId: s.id, leadId: lead.id, n },
          at,
          45 + ((n * 37) % 300),
        )
        n++
      }
    }
  }
  // Missed calls from numbers nobody knew: each becomes a lead with source 'phone'.
  for (const [i, [day, minutes]] of missed.entries()) {
    const at = new Date(zonedAt(now, day, minutes, zone))
    const result = await receiveIncoming(
      tx,
      {
        hospitalId: h.id,
        provider: 'sandbox',
        providerCallId: `sandbox-seed-missed-${index}-${i}`,
        from: `+9190${index}4${String(70_310 + i * 113).padStart(6, '0')}`,
        at,
      },
      staff.map((s) => ({ id: s.id, name: s.name, role: s.role })),
    )
    if (result.logged) {
      await applyCallChange(tx, result.row.id, {
        status: 'no-answer',
        at: new Date(at.getTime() + 28_000),
      })
    }
  }
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return true
}

export async function seedDemoCallHistory(
  tx: Tx,
  demo: readonly { key: string; email: string }[],
  now: Date,
): Promise<boolean> {
  let added = false
  for (const [i, h] of demo.entries()) added = (await seedHospitalCalls(tx, h, i, now)) || added
  return added
}
