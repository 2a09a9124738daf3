import { z } from 'zod'
import { MAX_PAGE_SIZE } from '../pagination'

export const uuidParam = z.strictObject({ id: z.uuid({ message: 'Must be a valid id' }) })

/** Optional free text: trimmed, '' becomes null, capped at `max` characters. */
export function optionalText(max: number) {
  return z
    .string({ message: 'Must be text' })
    .trim()
    .max(max, { message: `Must be at most ${max} characters` })
    .transform((v) => (v === '' ? null : v))
    .nullish()
    .transform((v) => v ?? null)
}

export function requiredText(label: string, max: number) {
  return z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${label} must be at most ${max} characters` })
}

/** A calendar date in YYYY-MM-DD form that really exists. */
export const isoDate = z
  .string({ message: 'Must be a date (YYYY-MM-DD)' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Must be a date (YYYY-MM-DD)' })
  .refine(
    (v) => {
      const d = new Date(`${v}T00:00:00Z`)
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v)
    },
    { message: 'Must be a real calendar date' },
  )

export { MAX_PAGE_SIZE, NEXT_CURSOR_HEADER, PAGE_SIZE } from '../pagination'

export const paginationQuery = {
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(MAX_PAGE_SIZE, { message: `limit must be at most ${MAX_PAGE_SIZE}` })
    .optional(),
  cursor: z.string().max(500, { message: 'cursor is too long' }).optional(),
}

/** An optional email: trimmed, lower-cased, '' becomes null. */
export const optionalEmail = z
  .string({ message: 'Must be text' })
  .trim()
  .max(254, { message: 'Email is too long' })
  .transform((v) => (v === '' ? null : v.toLowerCase()))
  .pipe(z.email({ message: 'Enter a valid email address' }).nullable())
  .nullish()
  .transform((v) => v ?? null)

/**
 * A required phone number typed by a person, stored as E.164. The normaliser is passed in so a
 * page can use a small one (demo form) without loading the full phone-number library.
 */
export function phoneNumber(
  normalize: (text: string) => string | null,
  messages: { required: string; invalid: string },
) {
  return z
    .string({ message: messages.required })
    .trim()
    .min(1, { message: messages.required })
    .max(32, { message: messages.invalid })
    .transform((value, ctx) => {
      const e164 = normalize(value)
      if (!e164) {
        ctx.addIssue({ code: 'custom', message: messages.invalid })
        return z.NEVER
      }
      return e164
    })
}

/** The body of a POST that takes none: nothing, or an empty JSON object. */
export const noBody = z.strictObject({})
