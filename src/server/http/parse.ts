import type { z } from 'zod'
import { AppError } from './app-error'

/** Parses a body, query or params object with a shared schema; a failure is a 400 with field messages. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where?: string): z.output<S> {
  const result = schema.safeParse(value ?? {})
  if (!result.success) throw AppError.fromZod(result.error, where)
  return result.data
}
