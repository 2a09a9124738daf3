import { formatPhone, normalizeMobilePhone } from '../../../shared/phone'
import type { Gender } from '../../../shared/schemas/patients'
import type { patients } from '../schema/patients'
import { demoAddress, type Region } from './demo-addresses'
import { allergiesFor, conditionsFor } from './demo-conditions'
import { communities, type Community, communityMix, emailDomains, insurers } from './demo-people'

type NewPatient = typeof patients.$inferInsert
export type Rng = () => number

/** Small deterministic PRNG (mulberry32) so demo data is the same on every machine. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)] as T
}

export function weighted<T>(rng: Rng, list: readonly (readonly [T, number])[]): T {
  let roll = rng() * list.reduce((sum, [, w]) => sum + w, 0)
  for (const [value, w] of list) if ((roll -= w) < 0) return value
  return (list.at(-1) as readonly [T, number])[0]
}

export const DAY_MS = 86_400_000
/** India has one time zone, UTC+05:30, and no daylight saving. */
export const IST_OFFSET_MS = 330 * 60_000

/** Ages of a clinic's patients: [youngest, oldest, weight]. */
const ageBands: readonly (readonly [[number, number], number])[] = [
  [[1, 5], 7],
  [[6, 12], 8],
  [[13, 17], 5],
  [[18, 29], 14],
  [[30, 44], 22],
  [[45, 59], 22],
  [[60, 74], 15],
  [[75, 90], 7],
]

/** 'YYYY-MM-DD' of a date in India. */
export function indiaDate(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10)
}

/** Whole years from a 'YYYY-MM-DD' date of birth to `today` ('YYYY-MM-DD'). */
export function ageOn(dateOfBirth: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4))
  return today.slice(5) < dateOfBirth.slice(5) ? years - 1 : years
}

/** A date of birth that makes the patient `age` today (day 0..364 before the birthday). */
function birthDate(age: number, today: string, rng: Rng): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number]
  const birthday = Date.UTC(y - age, m - 1, Math.min(d, 28))
  return new Date(birthday - Math.floor(rng() * 360) * DAY_MS).toISOString().slice(0, 10)
}

/** An Indian mobile ('+9198220 12345' in E.164) not handed out before in this batch. */
export function mobile(rng: Rng, used: Set<string>): string {
  const series = [
    '98',
    '97',
    '99',
    '96',
    '94',
    '90',
    '88',
    '87',
    '81',
    '80',
    '79',
    '77',
    '70',
    '63',
  ]
  for (;;) {
    const digits = `${pick(rng, series)}${String(Math.floor(rng() * 1e8)).padStart(8, '0')}`
    const e164 = normalizeMobilePhone(digits)
    if (e164 && !used.has(e164)) {
      used.add(e164)
      return e164
    }
  }
}

/** Mostly in clinic hours, more of them lately: the 'recently added' list looks alive. */
function createdAt(rng: Rng, now: Date): Date {
  const daysAgo = Math.floor(240 * rng() ** 1.7)
  const minutes = 9 * 60 + Math.floor(rng() * 630)
  const day = Date.parse(`${indiaDate(now)}T00:00:00Z`) - daysAgo * DAY_MS
  let at = day + minutes * 60_000 - IST_OFFSET_MS
  while (at > now.getTime()) at -= DAY_MS
  return new Date(at)
}

type Relation = 'mother' | 'father' | 'spouse' | 'son' | 'daughter' | 'brother' | 'sister'
const femaleRelations = new Set<Relation>(['mother', 'daughter', 'sister'])

/** Who a patient of this age would name: a parent for a child, a grown-up child when older. */
function relationFor(age: number, rng: Rng): Relation {
  if (age < 18) return pick(rng, ['mother', 'father'] as const)
  const options: [Relation, number][] = [
    ['brother', 1],
    ['sister', 1],
  ]
  if (age <= 55) options.push(['mother', 2], ['father', 1])
  if (age >= 24) options.push(['spouse', 4])
  if (age >= 45) options.push(['son', 2], ['daughter', 2])
  return weighted(rng, options)
}

function contactSex(relation: Relation, sex: Gender, rng: Rng): 'male' | 'female' {
  if (relation !== 'spouse') return femaleRelations.has(relation) ? 'female' : 'male'
  if (sex === 'male') return 'female'
  if (sex === 'female') return 'male'
  return rng() < 0.5 ? 'male' : 'female'
}

function emailFor(first: string, last: string, birthYear: number, rng: Rng, used: Set<string>) {
  const f = first.toLowerCase().replace(/[^a-z]/g, '')
  const l = last.toLowerCase().replace(/[^a-z]/g, '')
  for (let n = 0; ; n++) {
    const local = pick(rng, [
      `${f}.${l}`,
      `${f}${l}${String(birthYear).slice(2)}`,
      `${f}${l}`,
      `${f}.${l.slice(0, 1)}${1 + Math.floor(rng() * 99)}`,
      `${f}${birthYear}`,
    ])
    const email = `${local}${n > 2 ? n : ''}@${pick(rng, emailDomains)}`
    if (!used.has(email)) {
      used.add(email)
      return email
    }
  }
}

export interface GenerateOptions {
  /** Ages, birthdays and created_at are counted back from this moment (default: now). */
  now?: Date
  /** A dental clinic's patients come with dental histories. */
  clinic?: 'general' | 'dental'
  /** Names, phones and emails already taken in the hospital (lower-case names): not repeated. */
  avoid?: { names?: Iterable<string>; phones?: Iterable<string>; emails?: Iterable<string> }
}

/**
 * `count` patients for one hospital of `region`, oldest record first (so patient numbers
 * follow created_at). Names (first + last) are unique within the batch while the word lists
 * allow; phones and emails always are. The rules they keep are in seed-rules.ts.
 */
export function generatePatients(
  hospitalId: string,
  count: number,
  rng: Rng,
  region: Region,
  options: GenerateOptions = {},
): NewPatient[] {
  const now = options.now ?? new Date()
  const today = indiaDate(now)
  const currentYear = Number(today.slice(0, 4))
  const names = new Set<string>(options.avoid?.names)
  const phones = new Set<string>(options.avoid?.phones)
  const emails = new Set<string>(options.avoid?.emails)
  const rows: NewPatient[] = []
  for (let i = 0; i < count; i++) {
    const [from, to] = weighted(rng, ageBands)
    const targetAge = from + Math.floor(rng() * (to - from + 1))
    const sexRoll = rng()
    const gender: Gender =
      targetAge < 18 || sexRoll < 0.97
        ? sexRoll < 0.49
          ? 'male'
          : 'female'
        : sexRoll < 0.99
          ? 'other'
          : 'prefer_not_to_say'
    let family: Community = communities.marathi
    let first = ''
    let last = ''
    for (let attempt = 0; attempt < 40; attempt++) {
      family = communities[weighted(rng, communityMix[region])]
      const asMale = gender === 'male' || (gender !== 'female' && rng() < 0.5)
      first = pick(rng, asMale ? family.male : family.female)
      last = pick(rng, family.surnames)
      if (!names.has(`${first} ${last}`.toLowerCase())) break
    }
    names.add(`${first} ${last}`.toLowerCase())
    const dateOfBirth = birthDate(targetAge, today, rng)
    const age = ageOn(dateOfBirth, today)
    const birthYear = Number(dateOfBirth.slice(0, 4))
    const history = conditionsFor(age, gender, rng, {
      birthYear,
      currentYear,
      clinic: options.clinic,
    })
    const allergies = allergiesFor(age, history, rng)
    const relation = relationFor(age, rng)
    const kin = contactSex(relation, gender, rng)
    let kinFirst = first
    while (kinFirst === first) kinFirst = pick(rng, kin === 'male' ? family.male : family.female)
    const kinName = `${kinFirst} ${last}`
    const insured = rng() < (age < 18 ? 0.6 : 0.7)
    const [insurer, prefix] = pick(rng, insurers)
    const abha = String(Math.floor(rng() * 1e12)).padStart(12, '0')
    const created = createdAt(rng, now)
    const edited = rng() < 0.25 ? created.getTime() + Math.floor(rng() * 30) * DAY_MS : 0
    rows.push({
      hospitalId,
      name: `${first} ${last}`,
      email: age >= 16 && rng() < 0.8 ? emailFor(first, last, birthYear, rng, emails) : null,
      phone: mobile(rng, phones),
      gender,
      dateOfBirth,
      address: demoAddress(rng, region),
      emergencyContact: `${kinName} (${relation}), ${formatPhone(mobile(rng, phones))}`,
      insuranceProvider: insured ? insurer : null,
      insuranceNumber: insured ? `${prefix}${Math.floor(1e9 + rng() * 9e9)}` : null,
      abhaNumber:
        rng() < 0.35 ? `91-${abha.slice(0, 4)}-${abha.slice(4, 8)}-${abha.slice(8)}` : null,
      medicalHistory: history.length ? history.join('; ') : null,
      allergies: allergies.length ? allergies.join(', ') : null,
      createdAt: created,
      updatedAt: new Date(Math.min(edited || created.getTime(), now.getTime())),
    })
  }
  return rows.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime())
}
