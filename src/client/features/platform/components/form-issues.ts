import type { z } from 'zod'
import { ApiError } from '@/client/lib/api-client'

export type FieldErrors = Record<string, string>

/** The first message per field of a failed zod parse. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.join('.') || 'form'
    out[key] ??= issue.message
  }
  return out
}

/** The server's message, for a toast's description. */
export function serverMessage(error: unknown): string {
  return error instanceof ApiError ? error.serverMessage : 'Please try again.'
}

/** A whole number typed in a field: '' is absent, anything else a number (zod says if it is wrong). */
export function numberOrAbsent(text: string): number | undefined {
  const trimmed = text.trim()
  return trimmed === '' ? undefined : Number(trimmed)
}
