import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import {
  createDemoRequestInput,
  demoRequest,
  demoRequestReceipt,
  demoRequestSources,
  listDemoRequestsQuery,
  MOBILE_MESSAGE,
  normalizeIndianMobile,
  preferredTimeLabels,
  preferredTimes,
} from './demo-requests'
import {
  listOutboxQuery,
  mailDrivers,
  mailStatuses,
  OUTBOX_PAGE_SIZE,
  outboxEntry,
  outboxList,
} from './outbox'
import { secretHint } from './secrets'

// The signed-out demo form, the super admin's outbox and secret hints (mutation testing,
// docs/decisions/024).

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value)
  expect(result.success, `expected ${JSON.stringify(value)} to be refused`).toBe(false)
  return (result.error?.issues ?? []).map((i) => i.message)
}

describe('normalizeIndianMobile', () => {
  it.each([
    '9876543210',
    '98765 43210',
    '098765-43210',
    '+91 98765 43210',
    '+919876543210',
    '91 9876543210',
    '919876543210',
    '(+91) 98765 43210',
    '(98765) 43210',
    '98765.43210',
    ' +91 98765 43210 ',
    ' (+91) 98765 43210',
  ])('reads %j as +919876543210', (input) => {
    expect(normalizeIndianMobile(input)).toBe('+919876543210')
  })
  it.each(['6000000000', '7000000000', '8000000000', '9198765432'])(
    'takes the mobile %s',
    (input) => {
      expect(normalizeIndianMobile(input)).toBe(`+91${input}`)
    },
  )
  it.each([
    '',
    '5876543210',
    '0876543210',
    '987654321',
    '98765432100',
    '+44 98765 43210',
    '+1 9876543210',
    '+9876543210',
    '9198765432100',
    '919876543210 x',
    'x9876543210',
    '9876543210x',
    '09876543210 1',
    '00987654321',
    '10987654321',
    '19876543210',
    ' +9876543210',
    '819876543210',
    'nine876543210',
  ])('refuses %j', (input) => {
    expect(normalizeIndianMobile(input)).toBeNull()
  })
})

describe('createDemoRequestInput', () => {
  it('fills the preferred time and page, and normalises the rest', () => {
    expect(
      createDemoRequestInput.parse({
        name: ' Dr Asha ',
        organization: ' Sanjeevani ',
        mobile: '98765 43210',
      }),
    ).toEqual({
      name: 'Dr Asha',
      organization: 'Sanjeevani',
      mobile: '+919876543210',
      email: null,
      city: null,
      preferredTime: 'any',
      source: 'landing',
    })
    expect(
      createDemoRequestInput.parse({
        name: 'n'.repeat(120),
        organization: 'o'.repeat(200),
        mobile: '9876543210',
        email: 'A@B.IN',
        city: ' Pune ',
        preferredTime: 'evening',
        source: 'add-ons',
      }),
    ).toMatchObject({ email: 'a@b.in', city: 'Pune', preferredTime: 'evening', source: 'add-ons' })
  })

  it('refuses each bad field with its message', () => {
    const base = { name: 'Asha', organization: 'Clinic', mobile: '9876543210' }
    const cases: [Record<string, unknown>, string][] = [
      [{ name: undefined }, 'Please enter your name'],
      [{ name: '  ' }, 'Please enter your name'],
      [{ name: 'n'.repeat(121) }, 'Name must be at most 120 characters'],
      [{ organization: undefined }, 'Please enter your clinic or hospital name'],
      [{ organization: ' ' }, 'Please enter your clinic or hospital name'],
      [{ organization: 'o'.repeat(201) }, 'Clinic or hospital name must be at most 200 characters'],
      [{ mobile: undefined }, 'Mobile number is required'],
      [{ mobile: '020 2550 1234' }, MOBILE_MESSAGE],
      [{ preferredTime: 'night' }, 'Choose a preferred time'],
      [{ source: 'blog' }, 'Unknown page'],
      [{ city: 'c'.repeat(101) }, 'Must be at most 100 characters'],
    ]
    for (const [change, message] of cases) {
      expect(messagesOf(createDemoRequestInput, { ...base, ...change })).toEqual([message])
    }
    expect(MOBILE_MESSAGE).toBe('Enter a valid 10-digit Indian mobile number, e.g. 98765 43210')
    expect(createDemoRequestInput.safeParse({ ...base, plan: 'pro' }).success).toBe(false)
  })

  it('knows the preferred times and pages', () => {
    expect(preferredTimes).toEqual(['any', 'morning', 'afternoon', 'evening'])
    expect(preferredTimeLabels).toEqual({
      any: 'Any time',
      morning: 'Morning (9 am – 12 pm)',
      afternoon: 'Afternoon (12 – 4 pm)',
      evening: 'Evening (4 – 7 pm)',
    })
    expect(demoRequestSources).toEqual(['landing', 'pricing', 'add-ons'])
  })

  it('answers the visitor with the receipt fields only', () => {
    const stored = {
      id: 'd1',
      name: 'Asha',
      organization: 'Clinic',
      mobile: '+919876543210',
      email: null,
      city: null,
      preferredTime: 'any',
      source: 'pricing',
      createdAt: '2026-11-25T10:00:00.000Z',
    }
    expect(demoRequest.parse(stored)).toEqual(stored)
    expect(demoRequestReceipt.parse(stored)).toEqual({
      id: 'd1',
      name: 'Asha',
      mobile: '+919876543210',
      preferredTime: 'any',
      createdAt: '2026-11-25T10:00:00.000Z',
    })
    expect(listDemoRequestsQuery.parse({ limit: '100' })).toEqual({ limit: 100 })
    expect(listDemoRequestsQuery.safeParse({ limit: '101' }).success).toBe(false)
    expect(listDemoRequestsQuery.safeParse({ offset: '1' }).success).toBe(false)
  })
})

describe('the outbox', () => {
  it('lists at most 100 emails a page', () => {
    expect(OUTBOX_PAGE_SIZE).toBe(100)
    expect(listOutboxQuery.parse({ limit: '1' })).toEqual({ limit: 1 })
    expect(listOutboxQuery.parse({ limit: '100' })).toEqual({ limit: 100 })
    expect(listOutboxQuery.parse({})).toEqual({})
    const refusals: [string, string][] = [
      ['x', 'limit must be a number'],
      ['2.5', 'limit must be a whole number'],
      ['0', 'limit must be at least 1'],
      ['101', 'limit must be at most 100'],
    ]
    for (const [limit, message] of refusals) {
      expect(messagesOf(listOutboxQuery, { limit })).toEqual([message])
    }
    expect(listOutboxQuery.safeParse({ cursor: 'x' }).success).toBe(false)
  })

  it('shows each email with its driver and status', () => {
    expect(mailDrivers).toEqual(['sandbox', 'smtp'])
    expect(mailStatuses).toEqual(['sandbox', 'sent', 'failed'])
    const entry = {
      id: 'm1',
      createdAt: '2026-11-25T10:00:00.000Z',
      purpose: 'verification',
      to: 'a@b.in',
      subject: 'Activate',
      text: null,
      driver: 'smtp',
      status: 'failed',
      error: 'ECONNREFUSED',
      sentAt: null,
    }
    expect(outboxEntry.parse(entry)).toEqual(entry)
    expect(
      outboxList.parse([entry, { ...entry, driver: 'sandbox', status: 'sandbox' }]),
    ).toHaveLength(2)
    expect(outboxEntry.parse({ ...entry, status: 'sent' }).status).toBe('sent')
  })
})

describe('secretHint', () => {
  it('says set or not, and at most the last 4 characters', () => {
    expect(secretHint.parse({ set: false })).toEqual({ set: false })
    expect(secretHint.parse({ set: true, last4: 'abcd' })).toEqual({ set: true, last4: 'abcd' })
    expect(secretHint.parse({ set: true, last4: null })).toEqual({ set: true, last4: null })
    expect(secretHint.safeParse({ set: true, last4: 'abcde' }).success).toBe(false)
    expect(secretHint.safeParse({ set: false, last4: 'abcd' }).success).toBe(false)
    expect(secretHint.safeParse({ set: true, last4: 'abcd', value: 'secret' }).success).toBe(false)
  })
})
