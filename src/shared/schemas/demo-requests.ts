import { z } from 'zod'
import { optionalEmail, optionalText, paginationQuery, phoneNumber } from './common'

/** When the visitor would like the demo call (India Standard Time). */
export const preferredTimes = ['any', 'morning', 'afternoon', 'evening'] as const
export type PreferredTime = (typeof preferredTimes)[number]
export const preferredTimeLabels: Record<PreferredTime, string> = {
  any: 'Any time',
  morning: 'Morning (9 am – 12 pm)',
  afternoon: 'Afternoon (12 – 4 pm)',
  evening: 'Evening (4 – 7 pm)',
}

/** The page the request came from. */
export const demoRequestSources = ['landing', 'pricing', 'add-ons'] as const
export type DemoRequestSource = (typeof demoRequestSources)[number]

export const MOBILE_MESSAGE = 'Enter a valid 10-digit Indian mobile number, e.g. 98765 43210'

/**
 * An Indian mobile number as typed ('98765 43210', '098765-43210', '+91 98765 43210',
 * '91 9876543210') to E.164 ('+919876543210'); null unless it is a 10-digit number
 * starting with 6, 7, 8 or 9. Pure, so the demo form can check it without a phone library.
 */
export function normalizeIndianMobile(input: string): string | null {
  const trimmed = input.trim()
  if (!/^\(?\+?[\d\s().-]+$/.test(trimmed)) return null
  let digits = trimmed.replace(/\D/g, '')
  if (/^\(?\+/.test(trimmed)) {
    if (!digits.startsWith('91')) return null
    digits = digits.slice(2)
  } else if (digits.length === 12 && digits.startsWith('91')) digits = digits.slice(2)
  else if (digits.length === 11 && digits.startsWith('0')) digits = digits.slice(1)
  return /^[6-9]\d{9}$/.test(digits) ? `+91${digits}` : null
}

const mobile = phoneNumber(normalizeIndianMobile, {
  required: 'Mobile number is required',
  invalid: MOBILE_MESSAGE,
})

/** POST /api/demo-requests: a signed-out visitor asks for a demo. Unknown fields are rejected. */
export const createDemoRequestInput = z.strictObject({
  name: z
    .string({ message: 'Please enter your name' })
    .trim()
    .min(1, { message: 'Please enter your name' })
    .max(120, { message: 'Name must be at most 120 characters' }),
  organization: z
    .string({ message: 'Please enter your clinic or hospital name' })
    .trim()
    .min(1, { message: 'Please enter your clinic or hospital name' })
    .max(200, { message: 'Clinic or hospital name must be at most 200 characters' }),
  mobile,
  email: optionalEmail,
  city: optionalText(100),
  preferredTime: z.enum(preferredTimes, { message: 'Choose a preferred time' }).default('any'),
  source: z.enum(demoRequestSources, { message: 'Unknown page' }).default('landing'),
})
export type CreateDemoRequestInput = z.input<typeof createDemoRequestInput>

export const demoRequest = z.object({
  id: z.string(),
  name: z.string(),
  organization: z.string(),
  mobile: z.string(),
  email: z.string().nullable(),
  city: z.string().nullable(),
  preferredTime: z.enum(preferredTimes),
  source: z.enum(demoRequestSources),
  createdAt: z.string(),
})
export type DemoRequest = z.infer<typeof demoRequest>

/** What the visitor gets back: enough for the confirmation, nothing more. */
export const demoRequestReceipt = demoRequest.pick({
  id: true,
  name: true,
  mobile: true,
  preferredTime: true,
  createdAt: true,
})
export type DemoRequestReceipt = z.infer<typeof demoRequestReceipt>

/** GET /api/admin/demo-requests: newest first, paginated by cursor (x-next-cursor header). */
export const listDemoRequestsQuery = z.strictObject({ ...paginationQuery })
