import { z } from 'zod'

/**
 * What an API returns about a stored secret (a Meta token, an SMTP password): whether it is
 * set and, for long ones, its last 4 characters. Never the secret (server secrets/secrets.ts).
 */
export const secretHint = z.discriminatedUnion('set', [
  z.strictObject({ set: z.literal(false) }),
  z.strictObject({ set: z.literal(true), last4: z.string().max(4).nullable() }),
])
export type SecretHintBody = z.infer<typeof secretHint>
