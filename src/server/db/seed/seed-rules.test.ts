import { describe, expect, it } from 'vitest'
import { conditionCatalogue, conditionsFor } from './demo-conditions'
import { allFemaleNames, allMaleNames } from './demo-people'
import { demoHospitals, demoPatients, GENERATED_PATIENTS_PER_DEMO_HOSPITAL } from './demo'
import { ageOn, createRng, generatePatients, indiaDate } from './patients'
import { checkSeedRules, type SeedPatient } from './seed-rules'

// Issue 7, "Demo data that makes sense": the seed's rules, checked on what it generates.

const HOSPITAL_ID = '00000000-0000-4000-8000-000000000001'
/** A few moments, so that a birthday or a year boundary cannot hide a broken rule. */
const moments = ['2026-11-23T10:00:00Z', '2027-01-01T00:10:00Z', '2028-02-29T18:00:00Z'].map(
  (s) => new Date(s),
)

describe('demo patients', () => {
  for (const hospital of demoHospitals) {
    it(`of ${hospital.name} keep every rule`, () => {
      for (const now of moments) {
        const rows = demoPatients(hospital, HOSPITAL_ID, now)
        expect(rows).toHaveLength(GENERATED_PATIENTS_PER_DEMO_HOSPITAL)
        expect(checkSeedRules(rows, { now, region: hospital.region })).toEqual([])
      }
    })
  }

  it('are the same on every run (seeded), dates aside', () => {
    const now = moments[0]!
    const [a, b] = [0, 1].map(() => demoPatients(demoHospitals[0]!, HOSPITAL_ID, now))
    expect(a).toEqual(b)
  })

  it('have histories that fit children, women and men, and older patients have more', () => {
    const now = moments[0]!
    const today = indiaDate(now)
    const rows = demoHospitals.flatMap((h) => demoPatients(h, HOSPITAL_ID, now))
    const ageOf = (p: { dateOfBirth?: string | null }) => ageOn(p.dateOfBirth ?? '', today)
    const children = rows.filter((p) => ageOf(p) < 18)
    const elderly = rows.filter((p) => ageOf(p) >= 60)
    expect(children.length).toBeGreaterThan(10)
    expect(elderly.length).toBeGreaterThan(10)
    expect(rows.filter((p) => p.gender === 'male').length).toBeGreaterThan(30)
    expect(rows.filter((p) => p.gender === 'female').length).toBeGreaterThan(30)
    const withHistory = (list: typeof rows) =>
      list.filter((p) => p.medicalHistory).length / list.length
    expect(withHistory(elderly)).toBeGreaterThan(withHistory(children))
    // The dental clinic's patients mostly come with a dental history.
    const dental = demoPatients(demoHospitals[1]!, HOSPITAL_ID, now)
    expect(
      dental.filter((p) =>
        /tooth|teeth|dental|caries|root canal|gingiv|brace|denture/i.test(p.medicalHistory ?? ''),
      ).length,
    ).toBeGreaterThan(40)
    // Created over months, newest lately: the 'recently added' order looks alive.
    const days = new Set(rows.map((p) => indiaDate(p.createdAt as Date)))
    expect(days.size).toBeGreaterThan(40)
  })
})

describe('conditionsFor', () => {
  it('never gives a condition outside its ages and sex, over many patients', () => {
    const rng = createRng(7)
    const now = moments[0]!
    for (let i = 0; i < 5000; i++) {
      const age = Math.floor(rng() * 95)
      const sex = (['male', 'female', 'other', 'prefer_not_to_say'] as const)[i % 4]!
      const birthYear = 2026 - age
      const history = conditionsFor(age, sex, rng, {
        birthYear,
        currentYear: 2026,
        clinic: i % 2 ? 'dental' : 'general',
      })
      const row: SeedPatient = {
        name: 'Test Patient',
        phone: '+919822012345',
        gender: sex,
        dateOfBirth: `${birthYear}-01-01`,
        medicalHistory: history.join('; ') || null,
      }
      const problems = checkSeedRules([row], { now }).filter(
        (p) => !/emergency contact|first name|female name|created|updated/.test(p),
      )
      expect(problems, `${age} ${sex}: ${history.join('; ')}`).toEqual([])
    }
  })

  it('has a catalogue whose every line parsed', () => {
    for (const c of conditionCatalogue) {
      expect(c.text).toMatch(/^[A-Z]/)
      expect(c.minAge).toBeGreaterThanOrEqual(0)
      if (c.eventAge) expect(c.text).toContain('{year}')
      else expect(c.text).not.toContain('{year}')
    }
  })

  it('keeps first names of one sex only', () => {
    expect([...allMaleNames].filter((n) => allFemaleNames.has(n))).toEqual([])
  })
})

describe('checkSeedRules', () => {
  const now = moments[0]!
  const good = generatePatients(HOSPITAL_ID, 1, createRng(1), 'pune', { now })[0]!
  const adult = { ...good, gender: 'male', name: 'Sanjay Patil', dateOfBirth: '1980-05-01' }
  const child = { ...good, gender: 'female', name: 'Gauri Patil', dateOfBirth: '2018-05-01' }

  it.each([
    [
      'pregnancy history for a man',
      { ...adult, medicalHistory: 'Caesarean section (LSCS) in 2012' },
      /obstetric/,
    ],
    [
      'pregnancy history for a child',
      { ...child, medicalHistory: 'Gestational diabetes in pregnancy, 2024' },
      /obstetric/,
    ],
    [
      'hypertension at 8',
      { ...child, medicalHistory: 'Hypertension, on amlodipine 5 mg daily' },
      /adult/,
    ],
    [
      'type 2 diabetes at 8',
      { ...child, medicalHistory: 'Type 2 diabetes, on metformin 500 mg twice daily' },
      /adult/,
    ],
    ['menopause for a child', { ...child, medicalHistory: 'Post-menopausal' }, /menopause/],
    [
      'prostate for a woman',
      {
        ...child,
        gender: 'female',
        dateOfBirth: '1950-01-01',
        medicalHistory: 'BPH, on tamsulosin 0.4 mg',
      },
      /prostate/,
    ],
    [
      'COPD at 8',
      { ...child, medicalHistory: 'COPD, uses tiotropium inhaler' },
      /adult|later life/,
    ],
    [
      'childhood immunisations at 46',
      { ...adult, medicalHistory: 'Childhood immunisations up to date (UIP schedule)' },
      /paediatric/,
    ],
    [
      'an event before birth',
      { ...adult, medicalHistory: 'Appendectomy in 1975' },
      /happened at age/,
    ],
    [
      'an allergy to the medicine taken',
      {
        ...adult,
        medicalHistory: 'Coronary artery disease, stent in 2020; on aspirin 75 mg',
        allergies: 'Aspirin (wheezing)',
      },
      /allergic/,
    ],
    ['a landline', { ...adult, phone: '+912025501234' }, /mobile/],
    ['a made-up number', { ...adult, phone: '+911234567890' }, /mobile|form/],
    ['a title as first name', { ...adult, name: 'Dr.' }, /first and last/],
    ['a woman’s name for a man', { ...adult, name: 'Sunita Patil' }, /male first name/],
    [
      'a son of a child',
      { ...child, emergencyContact: 'Rohan Patil (son), +91 98220 11111' },
      /child/,
    ],
    [
      'an address outside the city',
      { ...adult, address: '12, MG Road, Fort, Mumbai 400001' },
      /not in Pune/,
    ],
    [
      'a record from the future',
      { ...adult, createdAt: new Date(now.getTime() + 86_400_000) },
      /future/,
    ],
  ] as [string, SeedPatient, RegExp][])('flags %s', (_, row, problem) => {
    expect(checkSeedRules([good], { now, region: 'pune' })).toEqual([])
    const problems = checkSeedRules([row], { now, region: 'pune' })
    expect(
      problems.some((p) => problem.test(p)),
      problems.join('\n'),
    ).toBe(true)
  })

  it('flags repeated names (titles aside), repeated addresses and a flat created_at', () => {
    const rows = generatePatients(HOSPITAL_ID, 30, createRng(3), 'pune', { now })
    expect(checkSeedRules(rows, { now, region: 'pune' })).toEqual([])
    const same = rows.map((p, i) =>
      i < 2 ? { ...p, name: i ? `Shri ${rows[0]!.name}` : p.name } : p,
    )
    expect(checkSeedRules(same, { now }).join('\n')).toMatch(/2 patients named/)
    const oneAddress = rows.map((p) => ({ ...p, address: rows[0]!.address }))
    expect(checkSeedRules(oneAddress, { now }).join('\n')).toMatch(/distinct addresses/)
    const oneMoment = rows.map((p) => ({ ...p, createdAt: now, updatedAt: now }))
    expect(checkSeedRules(oneMoment, { now }).join('\n')).toMatch(/created_at spans/)
  })
})
