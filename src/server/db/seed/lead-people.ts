import type { Region } from './demo-addresses'
import { communities, communityMix, emailDomains } from './demo-people'
import type { LeadPatient } from './leads'
import { IST_OFFSET_MS, pick, type Rng, weighted } from './patients'

/** Who the demo leads are and the dates they are told: names, emails, referrers, visit times. */

export const months = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ')

export interface Person {
  name: string
  female: boolean
}

/** A name of the region's mix that no patient or lead of the hospital has (`taken`: lower case). */
export function newPerson(rng: Rng, region: Region, taken: Set<string>): Person {
  for (let attempt = 0; attempt < 2000; attempt++) {
    const family = communities[weighted(rng, communityMix[region])]
    const female = rng() < 0.5
    const name = `${pick(rng, female ? family.female : family.male)} ${pick(rng, family.surnames)}`
    if (taken.has(name.toLowerCase())) continue
    taken.add(name.toLowerCase())
    return { name, female }
  }
  throw new Error('seed: ran out of distinct lead names')
}

export function emailOf(rng: Rng, name: string, used: Set<string>): string {
  const [f = '', l = ''] = name
    .toLowerCase()
    .replace(/[^a-z ]/g, '')
    .split(' ')
  for (let n = 0; ; n++) {
    const local = pick(rng, [`${f}.${l}`, `${f}${l}`, `${f}.${l}${10 + Math.floor(rng() * 89)}`])
    const email = `${local}${n > 2 ? n : ''}@${pick(rng, emailDomains)}`
    if (!used.has(email)) {
      used.add(email)
      return email
    }
  }
}

/** '1 Oct, 6:30 pm': the visit at which the lead became a patient, to the half hour. */
export function bookingDay(at: number): string {
  const d = new Date(at + IST_OFFSET_MS)
  const hour = d.getUTCHours()
  const minutes = d.getUTCMinutes() < 30 ? '00' : '30'
  const clock = `${hour % 12 || 12}:${minutes} ${hour < 12 ? 'am' : 'pm'}`
  return `${d.getUTCDate()} ${months[d.getUTCMonth()] ?? ''}, ${clock}`
}

/** An existing patient who referred the lead (never the lead itself). */
export function referrer(rng: Rng, patients: readonly LeadPatient[], self?: LeadPatient): string {
  const others = patients.filter((p) => p.id !== self?.id)
  return others.length ? pick(rng, others).name : 'a patient'
}
