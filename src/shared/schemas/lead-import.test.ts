import { describe, expect, it } from 'vitest'
import { csvLine, guessMapping, importMapping, neutraliseCell } from './lead-import'

describe('guessMapping', () => {
  it('reads the usual spreadsheet headers', () => {
    expect(
      guessMapping([
        'Full Name',
        'Phone Number',
        'E-mail',
        'Treatment',
        'Campaign Name',
        'Remarks',
        'Priority',
        'Lead Source',
      ]),
    ).toEqual({
      name: 'Full Name',
      phone: 'Phone Number',
      email: 'E-mail',
      serviceInterest: 'Treatment',
      campaign: 'Campaign Name',
      notes: 'Remarks',
      priority: 'Priority',
      sourceLabel: 'Lead Source',
    })
    expect(guessMapping(['name', 'mobile_no', 'email'])).toEqual({
      name: 'name',
      phone: 'mobile_no',
      email: 'email',
    })
    expect(guessMapping([' Mobile ', 'Patient Name'])).toEqual({
      name: 'Patient Name',
      phone: ' Mobile ',
    })
    expect(guessMapping(['Column A', 'Column B'])).toEqual({})
  })
})

describe('the mapping', () => {
  it('needs name and phone and knows no other fields', () => {
    expect(importMapping.safeParse({ name: 'A', phone: 'B' }).success).toBe(true)
    expect(importMapping.safeParse({ name: 'A' }).success).toBe(false)
    expect(importMapping.safeParse({ name: 'A', phone: 'B', status: 'C' }).success).toBe(false)
  })
})

describe('exported CSV', () => {
  it('neutralises cells a spreadsheet would run as formulas', () => {
    for (const cell of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutraliseCell(cell)).toBe(`'${cell}`)
    }
    expect(neutraliseCell('98765 43210')).toBe('98765 43210')
    expect(neutraliseCell('')).toBe('')
  })
  it('quotes commas, quotes and line breaks', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', '=cmd|"/c calc"!A0'])).toBe(
      'a,"b,c","say ""hi""","two\nlines","\'=cmd|""/c calc""!A0"\r\n',
    )
  })
})
