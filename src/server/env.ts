import { z } from 'zod'

const boolString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

/** The one reader of process.env. Everything else receives a typed Env. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  /** When set, PostgreSQL at this URL; otherwise embedded PGlite in DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  SEED_DEMO: boolString.default(true),
  DEMO_PASSWORD: z.string().min(8).max(128).default('arogya-demo-2026'),
  /** Secret for signing session cookies; generated and kept in DATA_DIR when not given. */
  BETTER_AUTH_SECRET: z.string().min(32).optional(),
  /** Public URL of the app (scheme decides Secure cookies). */
  BASE_URL: z.string().url().optional(),
  SESSION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(8),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Behind a reverse proxy, trust X-Forwarded-* headers. */
  TRUST_PROXY: boolString.default(false),
})

export type Env = z.infer<typeof envSchema>

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const picked = Object.fromEntries(
    Object.keys(envSchema.shape).map((k) => [k, source[k] === '' ? undefined : source[k]]),
  )
  const parsed = envSchema.safeParse(picked)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  return parsed.data
}
