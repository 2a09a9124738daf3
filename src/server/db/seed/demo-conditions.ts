/**
 * Medical and dental histories and allergies of demo patients, each with the ages and sex it
 * fits. conditionsFor() and allergiesFor() only pick what fits; seed-rules.ts checks the
 * result independently of these tables.
 */

type Rng = () => number
export type Sex = 'male' | 'female' | 'other' | 'prefer_not_to_say'

export interface Condition {
  /** As the history reads; '{year}' is filled with the year the event happened. */
  text: string
  /** Age now, in whole years. */
  minAge: number
  maxAge?: number
  sex?: 'male' | 'female'
  /** Age range in which the event of '{year}' can have happened. */
  eventAge?: [number, number]
  kind: 'medical' | 'dental'
  /** How common: 1 (rare) to 4 (common). */
  weight: number
  /** At most one condition of a group per patient (no 'Type 1' and 'Type 2 diabetes'). */
  group?: string
}

const ADULT = 18

/**
 * Every condition a demo patient can have, one per line: kind (M medical, D dental) · how
 * common (1 rare to 4 common) · age now (min-max or min+) · sex (F, M or any) · the age range
 * in which the '{year}' event happened (or -) · group (at most one of a group per patient, or
 * -) · the text as the history reads.
 */
const catalogue = `
M 4 1-12   any  -      -        Childhood immunisations up to date (UIP schedule)
M 2 1-12   any  -      -        Atopic eczema, uses emollients
M 2 4-17   any  -      asthma   Asthma, uses salbutamol inhaler when needed
M 1 5-17   any  4-12   -        Recurrent tonsillitis, tonsillectomy in {year}
M 2 1-10   any  -      anaemia  Iron-deficiency anaemia, on iron syrup
M 2 2-12   any  1-10   -        Ear infection (otitis media) in {year}, treated with amoxicillin
M 1 6-17   any  -      -        ADHD, under paediatric follow-up
M 1 6-45   any  -      diabetes Type 1 diabetes, on insulin
M 1 5+     any  4-70   -        Fracture of the left forearm in {year}, healed
M 2 3+     any  2-80   -        Dengue fever in {year}, fully recovered
M 1 5+     any  4-80   -        Typhoid fever in {year}, treated
M 1 8+     any  6-60   -        Appendectomy in {year}
M 2 14+    any  -      -        Migraine, occasional; takes paracetamol
M 2 18+    any  -      asthma   Asthma since childhood, on budesonide-formoterol inhaler
M 4 30+    any  -      diabetes Type 2 diabetes, on metformin 500 mg twice daily
M 3 30+    any  -      bp       Hypertension, on amlodipine 5 mg daily
M 2 35+    any  -      bp       Hypertension, on telmisartan 40 mg daily
M 3 35+    any  -      lipids   High cholesterol, on atorvastatin 10 mg
M 3 18+    any  -      -        Hypothyroidism, on levothyroxine 50 mcg
M 2 25+    any  -      -        Acid reflux (GERD), takes pantoprazole 40 mg when needed
M 3 18+    any  -      -        Vitamin D deficiency, on weekly supplements
M 2 25+    any  22-80  -        Low back pain, physiotherapy in {year}
M 1 25+    any  20-75  -        Kidney stones in {year}, passed
M 1 30+    any  25-75  -        Gallbladder removed (cholecystectomy) in {year}
M 1 20+    any  -      -        Depression, on sertraline 50 mg
M 1 35+    any  -      -        Gout, on allopurinol 100 mg
M 2 45+    any  40-85  lipids   Coronary artery disease, stent in {year}; on aspirin 75 mg and atorvastatin 20 mg
M 1 50+    any  -      asthma   COPD, uses tiotropium inhaler
M 3 50+    any  -      knees    Osteoarthritis of both knees
M 1 55+    any  52-85  knees    Right knee replacement in {year}
M 2 55+    any  52-90  -        Cataract surgery (left eye) in {year}
M 3 16+    F    -      anaemia  Mild anaemia, on iron tablets
M 2 16-45  F    -      gyn      PCOS, under follow-up
M 1 22+    F    21-40  gyn      Gestational diabetes in pregnancy, {year}
M 2 22+    F    21-40  gyn      Caesarean section (LSCS) in {year}
M 2 21+    F    20-40  gyn      Normal delivery in {year}, no complications
M 1 42+    F    40-55  gyn      Uterine fibroids, hysterectomy in {year}
M 3 52+    F    -      -        Post-menopausal, on calcium and vitamin D
M 3 55+    M    -      -        Benign prostatic hyperplasia (BPH), on tamsulosin 0.4 mg
M 1 25+    M    20-75  -        Inguinal hernia repair in {year}
D 3 3-8    any  2-7    caries   Early childhood caries, fluoride varnish in {year}
D 4 6+     any  5-80   caries   Dental caries, two fillings in {year}
D 1 7+     any  6-60   -        Chipped front tooth after a fall in {year}, composite restoration
D 3 14+    any  12-80  -        Root canal treatment, lower left molar, {year}
D 2 14-35  any  11-25  -        Braces from {year}, now wears a retainer
D 3 16+    any  -      -        Gingivitis, scaling every six months
D 2 18+    any  -      -        Tooth sensitivity, uses a desensitising toothpaste
D 2 19+    any  18-60  -        Wisdom tooth extraction (lower right) in {year}
D 1 30+    any  25-80  -        Dental implant (upper left premolar) in {year}
D 2 60+    any  55-90  -        Complete upper denture since {year}
`

export const conditionCatalogue: readonly Condition[] = catalogue
  .trim()
  .split('\n')
  .map(parseCondition)

function parseCondition(line: string): Condition {
  const [kind, weight, ages, sex, event, group, ...text] = line.trim().split(/\s+/)
  const range = (s: string | undefined) => (s ?? '').split(/[-+]/).filter(Boolean).map(Number)
  const [minAge = 0, maxAge] = range(ages)
  const [from, to] = range(event)
  return {
    text: text.join(' '),
    minAge,
    ...(maxAge !== undefined ? { maxAge } : {}),
    ...(sex === 'F' ? { sex: 'female' as const } : sex === 'M' ? { sex: 'male' as const } : {}),
    ...(from !== undefined && to !== undefined ? { eventAge: [from, to] as [number, number] } : {}),
    kind: kind === 'D' ? 'dental' : 'medical',
    weight: Number(weight),
    ...(group && group !== '-' ? { group } : {}),
  }
}

export interface Allergy {
  name: string
  reaction: string
  minAge: number
  /** A history that names one of these drugs cannot go with this allergy. */
  drugs: readonly string[]
  /** How common, relative to the others (default 1). */
  weight?: number
}

export const allergyCatalogue: readonly Allergy[] = [
  { name: 'Penicillin', reaction: 'rash', minAge: 1, drugs: ['penicillin', 'amoxicillin'] },
  { name: 'Sulfa drugs', reaction: 'hives', minAge: 1, drugs: ['sulfa', 'cotrimoxazole'] },
  { name: 'Aspirin', reaction: 'wheezing', minAge: 16, drugs: ['aspirin'] },
  { name: 'Ibuprofen', reaction: 'stomach upset', minAge: 2, drugs: ['ibuprofen'] },
  { name: 'Codeine', reaction: 'nausea', minAge: ADULT, drugs: ['codeine'] },
  { name: 'Peanuts', reaction: 'swelling of lips', minAge: 1, drugs: [] },
  { name: 'Eggs', reaction: 'hives', minAge: 1, drugs: [] },
  { name: 'Shellfish', reaction: 'hives', minAge: 3, drugs: [] },
  { name: 'Dust mites', reaction: 'sneezing', minAge: 2, drugs: [] },
  { name: 'Pollen', reaction: 'hay fever', minAge: 3, drugs: [] },
  { name: 'Latex', reaction: 'contact dermatitis', minAge: 5, drugs: [] },
]

function fits(c: { minAge: number; maxAge?: number; sex?: string }, age: number, sex: Sex) {
  return age >= c.minAge && age <= (c.maxAge ?? 200) && (!c.sex || c.sex === sex)
}

function pickWeighted<T extends { weight?: number }>(rng: Rng, list: readonly T[]): T | undefined {
  let roll = rng() * list.reduce((sum, x) => sum + (x.weight ?? 1), 0)
  for (const x of list) if ((roll -= x.weight ?? 1) < 0) return x
  return list.at(-1)
}

/** Histories go back this many years at most (what a patient still mentions). */
const MEMORY_YEARS = 30

/** The years in which a condition's event can have happened; empty when none. */
function eventYears(c: Condition, birthYear: number, currentYear: number): [number, number] {
  if (!c.eventAge) return [0, 0]
  return [
    Math.max(birthYear + c.eventAge[0], currentYear - MEMORY_YEARS),
    Math.min(birthYear + c.eventAge[1], currentYear),
  ]
}

/**
 * Conditions that fit a patient of this age (whole years) and sex, some of them with the year
 * they happened (between the ages the condition names, never after `currentYear`). A dental
 * clinic's patients have mostly dental histories; older patients have more conditions.
 */
export function conditionsFor(
  age: number,
  sex: Sex,
  rng: Rng,
  opts: { birthYear: number; currentYear: number; clinic?: 'general' | 'dental' },
): string[] {
  const dental = opts.clinic === 'dental'
  const eligible = conditionCatalogue.filter((c) => {
    const [first, last] = eventYears(c, opts.birthYear, opts.currentYear)
    return fits(c, age, sex) && first <= last
  })
  const wanted = { medical: 0, dental: 0 }
  const chance = age < ADULT ? 0.55 : age < 40 ? 0.6 : age < 60 ? 0.8 : 0.95
  if (rng() < chance) wanted.medical = 1 + (rng() < (age >= 50 ? 0.55 : 0.2) ? 1 : 0)
  if (dental) {
    wanted.dental = 1 + (rng() < 0.3 ? 1 : 0)
    wanted.medical = Math.min(wanted.medical, rng() < 0.5 ? 1 : 0)
  } else if (rng() < 0.08) wanted.dental = 1
  const chosen: Condition[] = []
  for (const kind of ['medical', 'dental'] as const) {
    for (let i = 0; i < wanted[kind]; i++) {
      const free = eligible.filter(
        (c) =>
          c.kind === kind &&
          !chosen.includes(c) &&
          !(c.group && chosen.some((o) => o.group === c.group)),
      )
      const c = pickWeighted(rng, free)
      if (c) chosen.push(c)
    }
  }
  return chosen.map((c) => {
    if (!c.eventAge) return c.text
    const [first, last] = eventYears(c, opts.birthYear, opts.currentYear)
    return c.text.replace('{year}', String(first + Math.floor(rng() * (last - first + 1))))
  })
}

/** Allergies ('Penicillin (rash)') that fit the age and no drug the history names. */
export function allergiesFor(age: number, history: readonly string[], rng: Rng): string[] {
  const text = history.join(' ').toLowerCase()
  const possible = allergyCatalogue.filter(
    (a) => age >= a.minAge && !a.drugs.some((d) => text.includes(d)),
  )
  const roll = rng()
  const count = roll < 0.65 ? 0 : roll < 0.93 ? 1 : 2
  const chosen: Allergy[] = []
  for (let i = 0; i < count; i++) {
    const a = pickWeighted(
      rng,
      possible.filter((x) => !chosen.includes(x)),
    )
    if (a) chosen.push(a)
  }
  return chosen.map((a) => `${a.name} (${a.reaction})`)
}
