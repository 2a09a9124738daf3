import { isHonorific, splitName } from '../../../shared/names'
import { normalizeMobilePhone } from '../../../shared/phone'
import { createPatientInput } from '../../../shared/schemas/patients'
import { cityNames, localities, type Region } from './demo-addresses'
import { allFemaleNames, allMaleNames } from './demo-people'
import { ageOn, indiaDate } from './patients'

/**
 * The rules demo patients keep, checked from the rows alone (not from the tables that made
 * them), so a new condition or word list cannot slip past them: what a history says fits the
 * patient's age and sex, names are unique, addresses vary, phones are mobiles, and every row
 * is what the patient form would accept.
 */

export interface SeedPatient {
  name: string
  phone: string
  email?: string | null
  gender?: string | null
  dateOfBirth?: string | null
  address?: string | null
  emergencyContact?: string | null
  medicalHistory?: string | null
  allergies?: string | null
  insuranceProvider?: string | null
  insuranceNumber?: string | null
  abhaNumber?: string | null
  createdAt?: Date | string | null
  updatedAt?: Date | string | null
}

/** [what the history mentions, the rule, whether a patient of this age and sex may have it] */
type Rule = [RegExp, string, (age: number, gender: string) => boolean]

const OBSTETRIC = /pregnan|gestational|caesarean|lscs|delivery|miscarriage|antenatal/i
const historyRules: readonly Rule[] = [
  [OBSTETRIC, 'obstetric history needs an adult woman', (a, g) => g === 'female' && a >= 18],
  [
    /menopaus|pcos|polycystic|hysterectomy|fibroid|uterine|ovar|menstrua/i,
    'gynaecological history needs a woman',
    (a, g) => g === 'female' && a >= 12,
  ],
  [/menopaus/i, 'menopause needs a woman of 40 or more', (a, g) => g === 'female' && a >= 40],
  [
    /prostat|\bBPH\b/i,
    'prostate history needs a man of 40 or more',
    (a, g) => g === 'male' && a >= 40,
  ],
  [
    /hypertension|type 2 diabetes|\bCOPD\b|coronary|angina|cholesterol|osteoarthritis|knee replacement|cataract|gout|depression|denture|implant|wisdom tooth/i,
    'adult-only condition',
    (a) => a >= 18,
  ],
  [
    /metformin|amlodipine|telmisartan|atorvastatin|tamsulosin|aspirin|allopurinol|sertraline|pantoprazole|tiotropium|formoterol|levothyroxine/i,
    'adult medicine',
    (a) => a >= 18,
  ],
  [
    /\bCOPD\b|coronary|knee replacement|osteoarthritis|cataract|denture/i,
    'condition of later life',
    (a) => a >= 40,
  ],
  [
    /immunisations up to date|\bUIP\b|paediatric|syrup|early childhood/i,
    'paediatric entry needs a child',
    (a) => a < 18,
  ],
]

/** Allergy → words of a history that cannot go with it (the drug or its class). */
const allergyClashes: Record<string, RegExp> = {
  penicillin: /penicillin|amoxicillin|ampicillin/i,
  aspirin: /aspirin/i,
  'sulfa drugs': /sulfa|cotrimoxazole/i,
  ibuprofen: /ibuprofen/i,
  codeine: /codeine/i,
}

const relationSex: Record<string, 'male' | 'female' | null> = {
  mother: 'female',
  sister: 'female',
  daughter: 'female',
  father: 'male',
  brother: 'male',
  son: 'male',
  spouse: null,
}

const time = (v: Date | string | null | undefined) => (v == null ? NaN : new Date(v).getTime())

/** Problems with one patient ('' means none); `today` is 'YYYY-MM-DD' in India. */
function checkPatient(p: SeedPatient, now: Date, region: Region | undefined): string[] {
  const problems: string[] = []
  const today = indiaDate(now)
  const parsed = createPatientInput.safeParse({
    name: p.name,
    phone: p.phone,
    email: p.email,
    dateOfBirth: p.dateOfBirth,
    gender: p.gender,
    address: p.address,
    emergencyContact: p.emergencyContact,
    medicalHistory: p.medicalHistory,
    allergies: p.allergies,
    insuranceProvider: p.insuranceProvider,
    insuranceNumber: p.insuranceNumber,
    abhaNumber: p.abhaNumber,
  })
  if (!parsed.success) problems.push(`not accepted by the patient form: ${parsed.error.message}`)
  else if (parsed.data.abhaNumber !== (p.abhaNumber ?? null)) problems.push('ABHA not as stored')
  if (normalizeMobilePhone(p.phone) !== p.phone) problems.push(`phone ${p.phone} is no mobile`)

  const { firstName, lastName } = splitName(p.name)
  if (!firstName || !lastName || isHonorific(firstName)) problems.push('needs first and last name')
  const gender = p.gender ?? ''
  if (gender === 'male' && !allMaleNames.has(firstName)) problems.push('not a male first name')
  if (gender === 'female' && !allFemaleNames.has(firstName)) problems.push('not a female name')

  if (!p.dateOfBirth) return [...problems, 'no date of birth']
  const age = ageOn(p.dateOfBirth, today)
  const birthYear = Number(p.dateOfBirth.slice(0, 4))
  if (age < 0 || age > 100) problems.push(`age ${age}`)
  for (const item of (p.medicalHistory ?? '').split('; ').filter(Boolean)) {
    for (const [pattern, rule, allowed] of historyRules)
      if (pattern.test(item) && !allowed(age, gender))
        problems.push(`${rule}: '${item}' (${age}, ${gender})`)
    for (const year of item.match(/\b(19|20)\d{2}\b/g) ?? []) {
      const at = Number(year) - birthYear
      if (at < 1 || Number(year) > Number(today.slice(0, 4)))
        problems.push(`'${item}' happened at age ${at}`)
      else if (OBSTETRIC.test(item) && at < 18) problems.push(`'${item}' at age ${at}`)
    }
  }
  for (const allergy of (p.allergies ?? '').split(', ').filter(Boolean)) {
    const name = allergy.replace(/ \(.*\)$/, '').toLowerCase()
    if (allergyClashes[name]?.test(p.medicalHistory ?? ''))
      problems.push(`allergic to ${name} but takes it`)
  }

  const contact = /^(\S+) (.+) \((\w+)\), (\+91[\d ]+)$/.exec(p.emergencyContact ?? '')
  if (!contact) problems.push(`emergency contact '${p.emergencyContact ?? ''}'`)
  else {
    const [, kinFirst = '', , relation = '', phone = ''] = contact
    if (kinFirst === firstName) problems.push(`emergency contact is also named ${kinFirst}`)
    const kinPhone = normalizeMobilePhone(phone)
    if (!kinPhone || kinPhone === p.phone) problems.push('emergency contact phone')
    const sex = relationSex[relation]
    if (sex === undefined) problems.push(`relation ${relation}`)
    if (sex && !(sex === 'male' ? allMaleNames : allFemaleNames).has(kinFirst))
      problems.push(`${relation} named ${kinFirst}`)
    if (age < 18 && relation !== 'mother' && relation !== 'father')
      problems.push(`a child's emergency contact is a ${relation}`)
    if (relation === 'spouse' && age < 21) problems.push(`married at ${age}`)
    if ((relation === 'son' || relation === 'daughter') && age < 36)
      problems.push(`a grown-up ${relation} at ${age}`)
    if ((relation === 'mother' || relation === 'father') && age > 65)
      problems.push(`a ${relation} of a patient of ${age}`)
  }

  if (p.email) {
    const local = p.email.split('@')[0] ?? ''
    if (!local.includes(firstName.toLowerCase().replace(/[^a-z]/g, '')))
      problems.push(`email ${p.email} is not theirs`)
    if (age < 13) problems.push(`own email at ${age}`)
  }
  if (!p.insuranceProvider !== !p.insuranceNumber) problems.push('insurer without number')

  if (region) {
    const ending = new RegExp(`, ${cityNames[region]} (\\d{6})$`).exec(p.address ?? '')
    const place = localities[region].find(
      (l) => l.pin === ending?.[1] && (p.address ?? '').includes(`, ${l.name}, `),
    )
    if (!place) problems.push(`address '${p.address ?? ''}' is not in ${cityNames[region]}`)
  }

  const created = time(p.createdAt)
  const updated = time(p.updatedAt)
  if (!(created <= now.getTime()) || created < Date.parse(p.dateOfBirth))
    problems.push('created before birth or in the future')
  if (!(updated >= created && updated <= now.getTime())) problems.push('updated_at out of order')
  return problems
}

/**
 * Every rule the demo patients of one hospital keep; an empty list when all hold.
 * `now` is when they were made; `region` checks addresses against its localities.
 */
export function checkSeedRules(
  rows: readonly SeedPatient[],
  opts: { now: Date; region?: Region },
): string[] {
  const problems = rows.flatMap((p) =>
    checkPatient(p, opts.now, opts.region).map((m) => `${p.name}: ${m}`),
  )
  const seen = new Map<string, number>()
  for (const p of rows) {
    const { firstName, lastName } = splitName(p.name)
    const key = `${firstName} ${lastName}`.toLowerCase()
    seen.set(key, (seen.get(key) ?? 0) + 1)
  }
  for (const [name, n] of seen) if (n > 1) problems.push(`${n} patients named ${name}`)
  const phones = new Set(rows.map((p) => p.phone))
  if (phones.size < rows.length) problems.push('phones repeat')
  const addresses = new Set(rows.map((p) => p.address))
  if (addresses.size < 0.9 * rows.length)
    problems.push(`only ${addresses.size} distinct addresses for ${rows.length} patients`)
  const created = rows.map((p) => time(p.createdAt))
  const span = (Math.max(...created) - Math.min(...created)) / 86_400_000
  const newest = (opts.now.getTime() - Math.max(...created)) / 86_400_000
  if (rows.length >= 20 && (span < 60 || newest > 14))
    problems.push(`created_at spans ${span.toFixed(0)} days, newest ${newest.toFixed(0)} days ago`)
  return problems
}
