import { describe, expect, it } from 'vitest'
import { fillTemplate, matchesDltTemplate, smsParts } from './message-text'

describe('smsParts', () => {
  it('counts GSM-7 text in 160s, then 153 a part', () => {
    expect(smsParts('')).toMatchObject({ encoding: 'GSM-7', length: 0, parts: 0 })
    expect(smsParts('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', parts: 1, length: 160 })
    expect(smsParts('a'.repeat(161))).toMatchObject({ parts: 2, perPart: 153 })
    expect(smsParts('a'.repeat(306))).toMatchObject({ parts: 2 })
    expect(smsParts('a'.repeat(307))).toMatchObject({ parts: 3 })
  })

  it('counts an extension character (€, [, ]) as two', () => {
    expect(smsParts('€')).toMatchObject({ encoding: 'GSM-7', length: 2 })
    expect(smsParts('a'.repeat(159) + '[')).toMatchObject({ length: 161, parts: 2 })
  })

  it('switches to UCS-2 (70, then 67 a part) for Hindi or the rupee sign', () => {
    expect(smsParts('नमस्ते')).toMatchObject({ encoding: 'UCS-2', singleLimit: 70, parts: 1 })
    expect(smsParts('Fee ₹500')).toMatchObject({ encoding: 'UCS-2', length: 8, parts: 1 })
    expect(smsParts('₹'.repeat(70))).toMatchObject({ parts: 1 })
    expect(smsParts('₹'.repeat(71))).toMatchObject({ parts: 2, perPart: 67 })
    expect(smsParts('₹'.repeat(135))).toMatchObject({ parts: 3 })
  })
})

describe('fillTemplate', () => {
  it('fills known placeholders and leaves unknown ones visible', () => {
    expect(fillTemplate('Hi {name}, see you {day}', { name: 'Asha' })).toBe(
      'Hi Asha, see you {day}',
    )
    expect(fillTemplate('{name}{name}', { name: 'R' })).toBe('RR')
    expect(fillTemplate('{constructor}', {})).toBe('{constructor}')
  })
})

describe('matchesDltTemplate', () => {
  const registered = 'Dear {#var#}, your appointment at {#var#} is confirmed. -SNJVNI'
  it('accepts the text with only the variables changed', () => {
    expect(
      matchesDltTemplate(
        registered,
        'Dear Asha Rao, your appointment at 10:30 AM is confirmed. -SNJVNI',
      ),
    ).toBe(true)
  })
  it('refuses any other difference, a too-long variable, or a line break in one', () => {
    expect(
      matchesDltTemplate(registered, 'Dear Asha, your visit at 10:30 is confirmed. -SNJVNI'),
    ).toBe(false)
    expect(
      matchesDltTemplate(
        registered,
        `Dear ${'x'.repeat(31)}, your appointment at 1 is confirmed. -SNJVNI`,
      ),
    ).toBe(false)
    expect(
      matchesDltTemplate(registered, 'Dear A\nB, your appointment at 1 is confirmed. -SNJVNI'),
    ).toBe(false)
    expect(matchesDltTemplate('Pay (now) ₹{#var#}.', 'Pay (now) ₹500.')).toBe(true)
    expect(matchesDltTemplate('Pay (now) ₹{#var#}.', 'Pay now ₹500.')).toBe(false)
  })
})
