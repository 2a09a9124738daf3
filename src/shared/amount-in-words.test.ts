import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { amountInWords, integerInWords } from './amount-in-words'

describe('amountInWords', () => {
  it.each([
    [0, 'Rupees Zero Only'],
    [100, 'Rupees One Only'],
    [1_20_000_00, 'Rupees One Lakh Twenty Thousand Only'],
    [15_050, 'Rupees One Hundred Fifty and Fifty Paise Only'],
    [50, 'Rupees Zero and Fifty Paise Only'],
    [1, 'Rupees Zero and One Paise Only'],
    [
      99_99_99_999,
      'Rupees Ninety Nine Lakh Ninety Nine Thousand Nine Hundred Ninety Nine and Ninety Nine Paise Only',
    ],
    [1_00_00_000_00, 'Rupees One Crore Only'],
    [2_35_07_011_05, 'Rupees Two Crore Thirty Five Lakh Seven Thousand Eleven and Five Paise Only'],
    [1_234_00_00_000_00, 'Rupees One Thousand Two Hundred Thirty Four Crore Only'],
    [1_000_00, 'Rupees One Thousand Only'],
    [1_01_000_00, 'Rupees One Lakh One Thousand Only'],
    [2_119_00, 'Rupees Two Thousand One Hundred Nineteen Only'],
  ])('%i paise → %s', (paise, words) => {
    expect(amountInWords(paise)).toBe(words)
  })

  it('refuses a negative or fractional amount', () => {
    expect(() => amountInWords(-1)).toThrow(RangeError)
    expect(() => amountInWords(1.5)).toThrow(RangeError)
  })

  it('has words only, single-spaced, Rupees ... Only, for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000_000 }), (paise) => {
        const words = amountInWords(paise)
        expect(words).toMatch(/^Rupees( ([A-Z][a-z]+|and))+ Only$/)
        expect(words).not.toMatch(/ {2}|Zero (Crore|Lakh|Thousand|Hundred)/)
        expect(words.includes(' Paise')).toBe(paise % 100 !== 0)
      }),
    )
  })

  it('reads back to the same number (a small parser of its own words)', () => {
    const values: Record<string, number> = {}
    ;[
      'Zero',
      'One',
      'Two',
      'Three',
      'Four',
      'Five',
      'Six',
      'Seven',
      'Eight',
      'Nine',
      'Ten',
      'Eleven',
      'Twelve',
      'Thirteen',
      'Fourteen',
      'Fifteen',
      'Sixteen',
      'Seventeen',
      'Eighteen',
      'Nineteen',
    ].forEach((w, i) => (values[w] = i))
    ;['Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'].forEach(
      (w, i) => (values[w] = (i + 2) * 10),
    )
    const parse = (text: string): number => {
      let total = 0
      let current = 0
      for (const w of text.split(' ')) {
        if (w === 'Hundred') current *= 100
        else if (w === 'Thousand' || w === 'Lakh') {
          total += current * (w === 'Lakh' ? 100_000 : 1000)
          current = 0
        } else if (w === 'Crore') {
          total = (total + current) * 10_000_000
          current = 0
        } else current += values[w] ?? NaN
      }
      return total + current
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_99_99_999 }), (n) => {
        expect(parse(integerInWords(n))).toBe(n)
      }),
    )
  })
})
