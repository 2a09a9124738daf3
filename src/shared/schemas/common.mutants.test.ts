import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  isoDate,
  MAX_PAGE_SIZE,
  NEXT_CURSOR_HEADER,
  optionalEmail,
  optionalText,
  PAGE_SIZE,
  paginationQuery,
  phoneNumber,
  requiredText,
  uuidParam,
} from './common'

// The building blocks every request schema is made of (mutation testing, docs/decisions/024):
// each bound at its edge, each message as the API answers it.

/** The one issue message of a failed parse (the test fails when the parse succeeds). */
function messageOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value)
  expect(result.success, `expected ${JSON.stringify(value)} to be refused`).toBe(false)
  return (result.error?.issues ?? []).map((i) => i.message)
}

const ID = '0b8a3a0e-4c1b-4a8f-9d3e-2f6f1c2b7a10'

describe('uuidParam', () => {
  it('takes an id and nothing else', () => {
    expect(uuidParam.parse({ id: ID })).toEqual({ id: ID })
    expect(messageOf(uuidParam, { id: 'not-a-uuid' })).toEqual(['Must be a valid id'])
    expect(messageOf(uuidParam, { id: `${ID}x` })).toEqual(['Must be a valid id'])
    expect(uuidParam.safeParse({ id: ID, extra: 1 }).success).toBe(false)
  })
})

describe('optionalText', () => {
  const text = optionalText(5)
  it('trims, keeps up to max characters, and stores nothing as null', () => {
    expect(text.parse(' ab ')).toBe('ab')
    expect(text.parse('abcde')).toBe('abcde')
    expect(text.parse(' abcde ')).toBe('abcde')
    expect(text.parse('')).toBeNull()
    expect(text.parse('   ')).toBeNull()
    expect(text.parse(null)).toBeNull()
    expect(text.parse(undefined)).toBeNull()
  })
  it('refuses longer text and non-text with its messages', () => {
    expect(messageOf(text, 'abcdef')).toEqual(['Must be at most 5 characters'])
    expect(messageOf(text, 12)).toEqual(['Must be text'])
  })
})

describe('requiredText', () => {
  const name = requiredText('Name', 5)
  it('trims and keeps 1 to max characters', () => {
    expect(name.parse(' a ')).toBe('a')
    expect(name.parse('abcde')).toBe('abcde')
    expect(name.parse('  abcde  ')).toBe('abcde')
  })
  it('refuses missing, blank and long text with the label in the message', () => {
    expect(messageOf(name, undefined)).toEqual(['Name is required'])
    expect(messageOf(name, '')).toEqual(['Name is required'])
    expect(messageOf(name, '   ')).toEqual(['Name is required'])
    expect(messageOf(name, 'abcdef')).toEqual(['Name must be at most 5 characters'])
  })
})

describe('isoDate', () => {
  it.each(['2024-02-29', '1900-01-01', '2026-12-31'])('takes the real date %s', (v) => {
    expect(isoDate.parse(v)).toBe(v)
  })
  it.each(['2023-02-29', '2024-04-31', '2024-13-01', '2024-00-10', '2024-01-00'])(
    'refuses %s, which is no calendar date',
    (v) => {
      expect(messageOf(isoDate, v)).toEqual(['Must be a real calendar date'])
    },
  )
  it.each([
    '2024-2-29',
    '24-02-29',
    '12024-02-29',
    '2024-02-290',
    '2024-002-09',
    'x2024-02-29',
    '2024-02-29x',
    '2024-02-29T00:00:00Z',
    'abcd-ef-gh',
    '2024/02/29',
    '',
  ])('refuses %j, which is not YYYY-MM-DD', (v) => {
    expect(messageOf(isoDate, v)[0]).toBe('Must be a date (YYYY-MM-DD)')
  })
  it('refuses what is not text', () => {
    expect(messageOf(isoDate, 20240229)).toEqual(['Must be a date (YYYY-MM-DD)'])
  })
})

describe('paginationQuery', () => {
  const query = z.strictObject(paginationQuery)
  it('reads limit as a whole number from 1 to MAX_PAGE_SIZE', () => {
    expect(PAGE_SIZE).toBe(30)
    expect(MAX_PAGE_SIZE).toBe(100)
    expect(NEXT_CURSOR_HEADER).toBe('x-next-cursor')
    expect(query.parse({ limit: '1' })).toEqual({ limit: 1 })
    expect(query.parse({ limit: '100' })).toEqual({ limit: 100 })
    expect(query.parse({})).toEqual({})
  })
  it('refuses other limits, each with its message', () => {
    expect(messageOf(query, { limit: 'abc' })).toEqual(['limit must be a number'])
    expect(messageOf(query, { limit: '1.5' })).toEqual(['limit must be a whole number'])
    expect(messageOf(query, { limit: '0' })).toEqual(['limit must be at least 1'])
    expect(messageOf(query, { limit: '101' })).toEqual(['limit must be at most 100'])
  })
  it('takes a cursor of up to 500 characters', () => {
    expect(query.parse({ cursor: 'c'.repeat(500) }).cursor).toHaveLength(500)
    expect(messageOf(query, { cursor: 'c'.repeat(501) })).toEqual(['cursor is too long'])
  })
})

describe('optionalEmail', () => {
  it('trims and lower-cases an address, and stores nothing as null', () => {
    expect(optionalEmail.parse(' Asha.Rao@Clinic.IN ')).toBe('asha.rao@clinic.in')
    expect(optionalEmail.parse('')).toBeNull()
    expect(optionalEmail.parse('  ')).toBeNull()
    expect(optionalEmail.parse(null)).toBeNull()
    expect(optionalEmail.parse(undefined)).toBeNull()
  })
  it('takes up to 254 characters', () => {
    const longest = `${'a'.repeat(244)}@clinic.in`
    expect(optionalEmail.parse(longest)).toHaveLength(254)
    expect(messageOf(optionalEmail, `${'a'.repeat(245)}@clinic.in`)).toEqual(['Email is too long'])
  })
  it('refuses what is not an address', () => {
    expect(messageOf(optionalEmail, 'asha')).toEqual(['Enter a valid email address'])
    expect(messageOf(optionalEmail, 42)).toEqual(['Must be text'])
  })
})

describe('phoneNumber', () => {
  const seen: string[] = []
  const phone = phoneNumber(
    (text) => {
      seen.push(text)
      return /^\d+$/.test(text) ? `+${text}` : null
    },
    { required: 'Phone please', invalid: 'Not a phone' },
  )
  it('hands the trimmed text to the normaliser and keeps what it returns', () => {
    expect(phone.parse('  98765  ')).toBe('+98765')
    expect(seen).toContain('98765')
    expect(phone.parse('1'.repeat(32))).toBe(`+${'1'.repeat(32)}`)
  })
  it('says required for nothing, and invalid for what the normaliser refuses or is too long', () => {
    expect(messageOf(phone, undefined)).toEqual(['Phone please'])
    expect(messageOf(phone, '')).toEqual(['Phone please'])
    expect(messageOf(phone, '   ')).toEqual(['Phone please'])
    expect(messageOf(phone, 'call me')).toEqual(['Not a phone'])
    expect(messageOf(phone, '1'.repeat(33))).toEqual(['Not a phone'])
  })
})
