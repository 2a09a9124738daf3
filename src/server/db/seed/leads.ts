import { normalizeMobilePhone, formatPhone } from '../../../shared/phone'
import type { LeadPriority, LeadSource, LeadStatus } from '../../../shared/schemas/leads'
import type { communications, leads } from '../schema/leads'
import type { patients } from '../schema/patients'
import { cityNames, type Region } from './demo-addresses'
import {
  type Clinic,
  csvCampaigns,
  leadNotes,
  metaCampaigns,
  phoneNotes,
  services,
  walkInNotes,
} from './demo-leads-data'
import { converse, HOUR, MINUTE } from './lead-messages'
import { bookingDay, emailOf, months, newPerson, type Person, referrer } from './lead-people'
import {
  ageOn,
  DAY_MS,
  generatePatients,
  indiaDate,
  IST_OFFSET_MS,
  mobile,
  pick,
  type Rng,
  weighted,
} from './patients'

type NewLead = typeof leads.$inferInsert
type NewCommunication = typeof communications.$inferInsert & { leadId: string }
type NewPatient = typeof patients.$inferInsert

/** A patient the hospital already has (a converted lead may be one of them). */
export interface LeadPatient {
  id: string
  name: string
  phone: string
  email: string | null
  gender: string | null
  dateOfBirth: string | null
  createdAt: Date
}
export interface LeadStaff {
  id: string
  role: string
}
export interface LeadHospital {
  name: string
  phone: string
  clinic: Clinic
  region: Region
}
export interface DemoLeads {
  leads: NewLead[]
  communications: NewCommunication[]
  /** Patients registered when a lead converted: insert them before the leads. */
  patients: NewPatient[]
}

export interface GenerateLeadsOptions {
  hospitalId: string
  hospital: LeadHospital
  /** The hospital's patients: their names and phones are not given to other leads. */
  patients: readonly LeadPatient[]
  /** Who leads are assigned to (doctors, nurses, receptionists, admins). */
  staff: readonly LeadStaff[]
  now: Date
  count: number
  /** Converted leads that became new patients; more convert into recent existing patients. */
  newPatients: number
  /** At most this many recent patients are found to have come from a lead. */
  fromPatients: number
  newId?: () => string
}

/** Leads are created this many days back at most. */
export const LEAD_DAYS = 60

const sourceMix: readonly (readonly [LeadSource, number])[] = [
  ['meta-facebook', 36],
  ['meta-instagram', 22],
  ['google-ads', 12],
  ['referral', 10],
  ['manual', 9],
  ['walk-in', 6],
  ['csv-import', 5],
]
const roleMix: Record<string, number> = { receptionist: 5, admin: 2, nurse: 2, doctor: 1 }

/** Status of a lead that did not convert, by its age in days (newer ones are untouched). */
function statusFor(ageDays: number, rng: Rng): LeadStatus {
  const mix: [LeadStatus, number][] =
    ageDays < 1
      ? [
          ['new', 85],
          ['contacted', 15],
        ]
      : ageDays < 3
        ? [
            ['new', 55],
            ['contacted', 30],
            ['follow-up', 8],
            ['rejected', 7],
          ]
        : ageDays < 10
          ? [
              ['new', 18],
              ['contacted', 32],
              ['follow-up', 35],
              ['rejected', 15],
            ]
          : [
              ['new', 6],
              ['contacted', 30],
              ['follow-up', 42],
              ['rejected', 22],
            ]
  return weighted(rng, mix)
}

const istMidnight = (at: number) =>
  Date.parse(`${indiaDate(new Date(at))}T00:00:00Z`) - IST_OFFSET_MS

/** A moment `daysAgo` days before now, between `from` and `to` o'clock in India, not after now. */
function dayTime(rng: Rng, now: number, daysAgo: number, from: number, to: number): number {
  let at = istMidnight(now) - daysAgo * DAY_MS + (from + rng() * (to - from)) * HOUR
  while (at > now) at -= DAY_MS
  return Math.floor(at / 1000) * 1000
}

function shuffle<T>(rng: Rng, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1))
    ;[list[i], list[j]] = [list[j] as T, list[i] as T]
  }
  return list
}

interface Planned {
  status: LeadStatus
  source: LeadSource
  createdAt: number
  patient?: LeadPatient
  convertedAt?: number
}

/**
 * `count` leads of one hospital over the last 60 days, with their communications and the
 * patients that converted leads became. The same for the same inputs (seeded `rng`) but for
 * ids and dates. The rules they keep are in seed-lead-rules.ts.
 */
export function generateLeads(o: GenerateLeadsOptions, rng: Rng): DemoLeads {
  const now = o.now.getTime()
  const newId = o.newId ?? (() => crypto.randomUUID())
  const today = indiaDate(o.now)
  const adult = (p: { dateOfBirth?: string | null }) =>
    !p.dateOfBirth || ageOn(p.dateOfBirth, today) >= 18
  const names = new Set(o.patients.map((p) => p.name.toLowerCase()))
  const phones = new Set(o.patients.map((p) => p.phone))
  const emails = new Set(o.patients.flatMap((p) => (p.email ? [p.email] : [])))
  const source = () => weighted(rng, sourceMix)

  // Recent adult patients with a phone of their own: some of them came from a lead.
  const phoneCount = new Map<string, number>()
  for (const p of o.patients) phoneCount.set(p.phone, (phoneCount.get(p.phone) ?? 0) + 1)
  const recent = o.patients.filter(
    (p) =>
      adult(p) &&
      p.createdAt.getTime() >= now - 56 * DAY_MS &&
      p.createdAt.getTime() <= now - 3 * HOUR &&
      phoneCount.get(p.phone) === 1 &&
      normalizeMobilePhone(p.phone) === p.phone,
  )
  const planned: Planned[] = shuffle(rng, recent)
    .slice(0, o.fromPatients)
    .map((patient) => {
      const convertedAt = patient.createdAt.getTime()
      // On one of the 1-6 days before the visit (not earlier than 58 days ago), in the day.
      const visitDaysAgo = Math.round((istMidnight(now) - istMidnight(convertedAt)) / DAY_MS)
      const daysAgo = Math.min(LEAD_DAYS - 2, visitDaysAgo + 1 + Math.floor(rng() * 6))
      const createdAt = dayTime(rng, now, daysAgo, 8, 21)
      return { status: 'converted', source: source(), createdAt, patient, convertedAt }
    })

  // New patients for the other converted leads, through the patient seed's generator.
  const fresh = generatePatients('', o.newPatients * 2, rng, o.hospital.region, {
    now: o.now,
    clinic: o.hospital.clinic,
    avoid: { names, phones, emails },
  })
    .filter(adult)
    .slice(0, o.newPatients)
  const newPatients: NewPatient[] = []
  for (const p of fresh) {
    const createdAt = dayTime(rng, now, 3 + Math.floor(54 * rng() ** 1.2), 8, 21)
    const convertedAt = Math.min(now - HOUR, createdAt + (0.5 + rng() * 7.5) * DAY_MS)
    const row = {
      ...p,
      id: newId(),
      hospitalId: o.hospitalId,
      createdAt: new Date(convertedAt),
      updatedAt: new Date(convertedAt),
    }
    newPatients.push(row)
    const patient: LeadPatient = {
      id: row.id,
      name: p.name,
      phone: p.phone,
      email: p.email ?? null,
      gender: p.gender ?? null,
      dateOfBirth: p.dateOfBirth ?? null,
      createdAt: row.createdAt,
    }
    planned.push({ status: 'converted', source: source(), createdAt, patient, convertedAt })
  }
  for (const p of planned) {
    names.add(p.patient?.name.toLowerCase() ?? '')
    phones.add(p.patient?.phone ?? '')
  }

  // The rest, more of them lately; CSV imports arrive in batches on a few days.
  const importDays = [4, 17, 38].map((d) => d + Math.floor(rng() * 3))
  while (planned.length < o.count) {
    const from = source()
    const daysAgo =
      from === 'csv-import' ? pick(rng, importDays) : Math.floor((LEAD_DAYS - 1) * rng() ** 1.35)
    const [start, end] =
      from === 'walk-in' ? [9.5, 19] : from === 'csv-import' ? [11, 11.2] : [8, 21.5]
    const createdAt = dayTime(rng, now, daysAgo, start, end)
    planned.push({ status: statusFor((now - createdAt) / DAY_MS, rng), source: from, createdAt })
  }

  const out: DemoLeads = { leads: [], communications: [], patients: newPatients }
  const formIds = new Map<string, string>()
  const metaIds = new Set<string>()
  const digits = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      String(Math.floor(rng() * (i ? 10 : 9)) + (i ? 0 : 1)),
    ).join('')
  const staffPool = o.staff.map((s) => [s.id, roleMix[s.role] ?? 1] as const)
  const hospitalName = o.hospital.name.split(',')[0] ?? o.hospital.name
  const city = cityNames[o.hospital.region]

  for (const p of planned.sort((a, b) => a.createdAt - b.createdAt)) {
    const person = p.patient ?? newPerson(rng, o.hospital.region, names)
    const female = p.patient ? p.patient.gender === 'female' : (person as Person).female
    const first = person.name.split(' ')[0] ?? person.name
    const month = months[new Date(p.createdAt + IST_OFFSET_MS).getUTCMonth()] ?? ''
    const meta = p.source === 'meta-facebook' || p.source === 'meta-instagram'
    const offered = services[o.hospital.clinic].filter((s) => female || !s.women).map((s) => s.name)
    let campaign: string | null = null
    let service = pick(rng, offered)
    if (meta) {
      const ad = pick(
        rng,
        metaCampaigns[o.hospital.clinic].filter((c) => c.services.some((s) => offered.includes(s))),
      )
      campaign = `${ad.name} – ${month}`
      service = pick(
        rng,
        ad.services.filter((s) => offered.includes(s)),
      )
    } else if (p.source === 'google-ads') campaign = `Search – ${service} ${city}`
    else if (p.source === 'csv-import')
      campaign = `${pick(rng, csvCampaigns[o.hospital.clinic])} – ${month}`
    let metaLeadId: string | null = null
    let metaFormId: string | null = null
    if (meta && campaign) {
      metaFormId = formIds.get(campaign) ?? digits(15)
      formIds.set(campaign, metaFormId)
      do metaLeadId = digits(16)
      while (metaIds.has(metaLeadId))
      metaIds.add(metaLeadId)
    }
    const assignee =
      staffPool.length && (p.status !== 'new' || rng() < 0.45) ? weighted(rng, staffPool) : null
    const fill = (text: string) =>
      text
        .replaceAll('{first}', first)
        .replaceAll('{service}', service.toLowerCase())
        .replaceAll('{hospital}', hospitalName)
        .replaceAll('{phone}', formatPhone(o.hospital.phone))
        .replaceAll('{day}', bookingDay(p.convertedAt ?? p.createdAt))
    const notes =
      p.source === 'walk-in'
        ? fill(pick(rng, walkInNotes))
        : p.source === 'manual'
          ? fill(pick(rng, phoneNotes))
          : p.source === 'referral' && rng() < 0.6
            ? `Referred by ${referrer(rng, o.patients, p.patient)}.`
            : rng() < 0.3
              ? pick(rng, leadNotes)
              : null
    const id = newId()
    const { rows, lastContactAt } = converse(
      {
        hospitalId: o.hospitalId,
        leadId: id,
        status: p.status,
        source: p.source,
        createdAt: p.createdAt,
        lastContact: lastContactFor(p, now, rng),
        convertedAt: p.convertedAt,
        assignee,
        campaign,
        metaLeadId,
        metaFormId,
        fill,
        now,
      },
      rng,
    )
    out.communications.push(...rows)
    const newest = Math.max(p.createdAt, ...rows.map((r) => (r.createdAt as Date).getTime()))
    const email =
      p.patient?.email ?? (rng() < (meta ? 0.55 : 0.25) ? emailOf(rng, person.name, emails) : null)
    out.leads.push({
      hospitalId: o.hospitalId,
      id,
      name: person.name,
      email: p.patient && rng() < 0.4 ? null : email,
      phone: p.patient?.phone ?? mobile(rng, phones),
      status: p.status,
      source: p.source,
      priority: weighted<LeadPriority>(rng, [
        ['high', p.status === 'converted' ? 40 : 22],
        ['medium', 50],
        ['low', 25],
      ]),
      serviceInterest: rng() < 0.95 ? service : null,
      campaign,
      notes,
      metaLeadId,
      metaFormId,
      assignedToUserId: assignee,
      patientId: p.patient?.id ?? null,
      lastContactAt,
      createdAt: new Date(p.createdAt),
      updatedAt: new Date(newest),
    })
  }
  capUnread(out.communications, now)
  return out
}

/**
 * At most MAX_UNREAD_REPLIES replies stay unread (the newest): a desk that keeps up, whatever
 * the day's draw. The messaging seed adds its own two, and the bell must stay believable.
 */
export const MAX_UNREAD_REPLIES = 24
function capUnread(rows: DemoLeads['communications'], now: number): void {
  const unread = rows
    .filter((c) => c.direction === 'inbound' && c.type !== 'system' && !c.readAt)
    .sort((a, b) => (b.createdAt as Date).getTime() - (a.createdAt as Date).getTime())
  for (const c of unread.slice(MAX_UNREAD_REPLIES)) {
    c.readAt = new Date(Math.min(now, (c.createdAt as Date).getTime() + 20 * MINUTE))
  }
}

/** When the last contact of a worked lead was: mostly recent, some due, a few overdue. */
function lastContactFor(p: Planned, now: number, rng: Rng): number {
  const after = p.createdAt + 20 * MINUTE
  if (p.convertedAt !== undefined) return Math.max(after, p.convertedAt - (0.5 + rng() * 20) * HOUR)
  if (p.status === 'rejected') return Math.min(now, after + rng() * 5 * DAY_MS)
  // A desk that keeps up: most were contacted in the last 3 days (not due yet), some are due
  // about now, a few are overdue (the bell and '… urgent require attention' stay believable).
  const ago = weighted(rng, [
    [rng() * 2.8, 74],
    [3 + rng() * 1.2, 14],
    [4.5 + rng() * 9, 12],
  ] as const)
  return Math.min(now, Math.max(after, now - ago * DAY_MS))
}
