import { normalizePhone } from '../../../shared/phone'
import type { Gender } from '../../../shared/schemas/patients'
import type { patients } from '../schema/patients'
import {
  allergyList,
  bengaluruAreas,
  conditions,
  firstNamesFemale,
  firstNamesMale,
  insurers,
  lastNames,
  puneAreas,
} from './demo-people'

type NewPatient = typeof patients.$inferInsert

/** Small deterministic PRNG (mulberry32) so demo data is the same on every machine. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function pick<T>(rng: () => number, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)] as T
}

function mobile(rng: () => number): string {
  for (;;) {
    const first = pick(rng, ['98', '97', '99', '88', '70', '81', '90', '63'])
    const rest = String(Math.floor(rng() * 1e8)).padStart(8, '0')
    const e164 = normalizePhone(`${first}${rest}`)
    if (e164) return e164
  }
}

/** Patients for one hospital; `region` picks the addresses. */
export function generatePatients(
  hospitalId: string,
  count: number,
  rng: () => number,
  region: 'pune' | 'bengaluru',
): NewPatient[] {
  const rows: NewPatient[] = []
  const areas = region === 'pune' ? puneAreas : bengaluruAreas
  const emailDomains = ['gmail.com', 'yahoo.co.in', 'outlook.com', 'rediffmail.com']
  for (let i = 0; i < count; i++) {
    const gender: Gender = rng() < 0.48 ? 'male' : rng() < 0.95 ? 'female' : 'other'
    const first = pick(rng, gender === 'male' ? firstNamesMale : firstNamesFemale)
    const last = pick(rng, lastNames)
    const year = 1945 + Math.floor(rng() * 75)
    const month = 1 + Math.floor(rng() * 12)
    const day = 1 + Math.floor(rng() * 28)
    const insured = rng() < 0.7
    const history =
      rng() < 0.65 ? [pick(rng, conditions), ...(rng() < 0.3 ? [pick(rng, conditions)] : [])] : []
    const allergies = rng() < 0.35 ? [pick(rng, allergyList)] : []
    const emergencyMale = rng() < 0.5
    const emergencyName = `${pick(rng, emergencyMale ? firstNamesMale : firstNamesFemale)} ${last}`
    const relation = pick(
      rng,
      emergencyMale
        ? ['spouse', 'father', 'son', 'brother']
        : ['spouse', 'mother', 'daughter', 'sister'],
    )
    const handle = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '')
    rows.push({
      hospitalId,
      name: `${first} ${last}`,
      email: rng() < 0.85 ? `${handle}${Math.floor(rng() * 100)}@${pick(rng, emailDomains)}` : null,
      phone: mobile(rng),
      gender,
      dateOfBirth: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      address: pick(rng, areas),
      emergencyContact: `${emergencyName} (${relation}) ${mobile(rng)}`,
      insuranceProvider: insured ? pick(rng, insurers) : null,
      insuranceNumber: insured
        ? `${pick(rng, ['SH', 'HE', 'IL', 'NB', 'CH'])}${Math.floor(1e9 + rng() * 9e9)}`
        : null,
      medicalHistory: history.length ? [...new Set(history)].join('; ') : null,
      allergies: allergies.length ? allergies.join(', ') : null,
    })
  }
  return rows
}
