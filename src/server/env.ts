import { isIP } from 'node:net'
import { z } from 'zod'
import { parseSecretsKeys } from './secrets/keys'
import { checkS3Env, s3EnvShape } from './storage/storage-env'

const boolString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

/** An address or CIDR block: 10.0.0.1, 10.0.0.0/8, ::1, fd00::/8. */
function isAddressOrCidr(text: string): boolean {
  const [address = '', bits, extra] = text.split('/')
  const family = isIP(address)
  if (!family || extra !== undefined) return false
  if (bits === undefined) return true
  if (!/^\d{1,3}$/.test(bits)) return false
  return Number(bits) <= (family === 4 ? 32 : 128)
}

/**
 * TRUST_PROXY: which X-Forwarded-* hops to believe. `false` (none), a hop count (`1` behind one
 * nginx), or a comma-separated list of proxy addresses/CIDRs. `true` (every hop) is refused:
 * any client could then choose its own IP and escape every per-IP limit.
 */
export const trustProxySetting = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    const v = value.toLowerCase()
    if (v === 'false' || v === '0' || v === 'no' || v === '') return false
    if (v === 'true' || v === 'yes') {
      ctx.addIssue({
        code: 'custom',
        message:
          'TRUST_PROXY=true would trust every X-Forwarded-For hop; give the number of proxies in front of the app (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8,127.0.0.1)',
      })
      return z.NEVER
    }
    if (/^\d+$/.test(v)) {
      const hops = Number(v)
      if (hops > 10) ctx.addIssue({ code: 'custom', message: 'TRUST_PROXY hop count must be 0-10' })
      return hops
    }
    const list = v.split(',').map((s) => s.trim())
    const bad = list.filter((s) => !isAddressOrCidr(s))
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `TRUST_PROXY: not an address or CIDR: ${bad.join(', ')}`,
      })
      return z.NEVER
    }
    return list
  })

/** The one reader of process.env. Everything else receives a typed Env. */
const envShape = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  /** Loopback by default: the demo's published passwords stay on this machine (issue 40 item 18). */
  HOST: z.string().default('127.0.0.1'),
  /** When set, PostgreSQL at this URL; otherwise embedded PGlite in DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /**
   * Owner connection for migrations; DATABASE_URL may then be a role that is neither
   * superuser nor owner (docs/decisions/001).
   */
  DATABASE_MIGRATION_URL: z.string().url().optional(),
  /**
   * A session connection to PostgreSQL itself (not PgBouncer in transaction mode) for LISTEN:
   * revoked sessions reach every instance's session cache at once. Without it, cached sessions
   * live at most 1 s (docs/decisions/010).
   */
  DATABASE_DIRECT_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  /** Embedded database snapshots (daily and at clean shutdown); default <DATA_DIR>-snapshots. */
  SNAPSHOT_DIR: z.string().optional(),
  SNAPSHOT_KEEP: z.coerce.number().int().min(1).max(365).default(7),
  /** Default: on, except with NODE_ENV=production, where it must be asked for explicitly. */
  SEED_DEMO: boolString.optional(),
  DEMO_PASSWORD: z.string().min(8).max(128).default('arogya-demo-2026'),
  /** Secret for signing session cookies; generated and kept in DATA_DIR when not given. */
  BETTER_AUTH_SECRET: z.string().min(32).optional(),
  /**
   * Key(s) that encrypt hospitals' secrets: 32 bytes in base64, or `id:key,id:key` where the
   * first encrypts and all decrypt (rotation). Generated into DATA_DIR/.secrets-key when unset,
   * except in production on PostgreSQL (docs/decisions/015).
   */
  SECRETS_KEY: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return
      try {
        parseSecretsKeys(value)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
      }
    }),
  /** Public URL of the app (scheme decides Secure cookies; links in emails use it). */
  BASE_URL: z.string().url().optional(),
  SESSION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(8),
  /** A session unused for this long ends (staff default 30 minutes). */
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  /** json (one object per line, for log collectors) or pretty (for a terminal). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxySetting.default(false),
  /** Run the job worker inside the server (npm start); false when `npm run worker` does it. */
  JOBS_WORKER: boolString.default(true),
  /** Jobs one worker runs at once on PostgreSQL (the embedded database runs one at a time). */
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /** Jobs one hospital may run at once across every worker and instance (docs/decisions/020). */
  JOBS_PER_HOSPITAL_RUNNING: z.coerce.number().int().min(1).max(64).default(2),
  /** Meta's Graph API for lead ads (tests point it at a local fake); https in production. */
  META_GRAPH_URL: z.string().url().default('https://graph.facebook.com'),
  META_GRAPH_VERSION: z
    .string()
    .regex(/^v\d{1,3}\.\d{1,2}$/, { message: 'must look like v21.0' })
    .default('v21.0'),
  /**
   * Leadgen changes Meta's webhook may add per hospital and minute (each becomes a lead fetch
   * job); a delivery over it gets 429 and nothing of it is stored (docs/decisions/021).
   */
  META_WEBHOOK_CHANGES_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
  /** CSV imports of leads queued or running at once per hospital; the next gets 429. */
  IMPORT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100).default(2),
  /** Bytes of import files (uploads, error reports, state) a hospital may hold; over it, 413. */
  IMPORT_MAX_HOSPITAL_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .max(1024 ** 4)
    .default(200 * 1024 * 1024),
  /** Failed rows an import's error report lists in full; the rest are counted by reason. */
  IMPORT_ERROR_ROWS: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
  /** smtp(s)://user:pass@host:port; when unset, emails go to the sandbox outbox. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Arogya CRM <no-reply@arogya.local>'),
  /**
   * On-premise installs: a hospital's SMTP host may be on a private network (loopback, RFC 1918,
   * link-local, unique-local) and, there only, without TLS. Off by default: a hospital's hosts
   * are refused when they resolve to such an address (src/server/net/outbound-host.ts).
   */
  SMTP_ALLOW_PRIVATE_HOSTS: boolString.default(false),
  // Messaging providers (issue 25, docs/decisions/025): base URLs, so tests and the e2e run
  // point them at local fakes (tests/support/fakes/). A hospital's credentials are its own
  // (Settings → Integrations), never env. WhatsApp's Cloud API is META_GRAPH_URL's Graph API.
  TWILIO_API_URL: z.string().url().default('https://api.twilio.com'),
  /** Twilio's Content API (WhatsApp templates' approval, read by Resync). */
  TWILIO_CONTENT_URL: z.string().url().default('https://content.twilio.com'),
  MSG91_API_URL: z.string().url().default('https://control.msg91.com'),
  SENDGRID_API_URL: z.string().url().default('https://api.sendgrid.com'),
  /** The sandbox provider reports a message delivered this long after it was sent. */
  SANDBOX_DELIVERY_MS: z.coerce.number().int().min(0).max(600_000).default(3_000),
  /** Messages one hospital may hand to its providers per minute (bulk sends are paced by it). */
  // Voice (issue 41): provider base URLs, so tests and the e2e run point them at local fakes.
  // Exotel's host follows the hospital's region (Mumbai or Singapore) unless EXOTEL_API_URL
  // replaces it; Twilio Voice is Twilio's REST API.
  EXOTEL_API_URL: z.string().url().optional(),
  TWILIO_VOICE_API_URL: z.string().url().default('https://api.twilio.com'),
  /** The sandbox's calls ring this long before they are answered (or give up, or are busy). */
  VOICE_SANDBOX_RING_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  /** An answered sandbox call talks this long (wall time) before it completes. */
  VOICE_SANDBOX_TALK_MS: z.coerce.number().int().min(0).max(3_600_000).default(20_000),
  MESSAGES_PER_HOSPITAL_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
  ...s3EnvShape,
})

export const envSchema = envShape
  .superRefine((env, ctx) => {
    checkS3Env(env, ctx)
    if (env.NODE_ENV === 'production' && !env.BASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['BASE_URL'],
        message:
          'required with NODE_ENV=production (links in emails and the allowed origin come from it)',
      })
    }
    if (env.NODE_ENV === 'production' && new URL(env.META_GRAPH_URL).protocol !== 'https:') {
      ctx.addIssue({
        code: 'custom',
        path: ['META_GRAPH_URL'],
        message:
          'must be an https:// URL with NODE_ENV=production (page access tokens travel in its requests); http:// is for a local fake in development and tests',
      })
    }
  })
  .transform(({ SEED_DEMO, LOG_FORMAT, ...env }) => ({
    ...env,
    /** Default: JSON in production, readable lines elsewhere. */
    LOG_FORMAT: LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'pretty'),
    SEED_DEMO: SEED_DEMO ?? env.NODE_ENV !== 'production',
    /** Demo accounts with a published password were asked for in production. */
    SEED_DEMO_IN_PRODUCTION: env.NODE_ENV === 'production' && SEED_DEMO === true,
  }))

export type Env = z.output<typeof envSchema>

/**
 * Read by better-auth itself, behind our back: another base URL, or trusted origins besides
 * BASE_URL (docs/decisions/009). Refused at start-up; BASE_URL is the one setting.
 */
const betterAuthOwnSettings = ['BETTER_AUTH_URL', 'BETTER_AUTH_TRUSTED_ORIGINS']

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const keys = Object.keys(envShape.shape)
  const picked = Object.fromEntries(keys.map((k) => [k, source[k] === '' ? undefined : source[k]]))
  const parsed = envSchema.safeParse(picked)
  const foreign = betterAuthOwnSettings
    .filter((k) => source[k])
    .map((k) => `  ${k}: not supported (better-auth would trust it besides BASE_URL); set BASE_URL`)
  if (!parsed.success || foreign.length) {
    const issues = parsed.success ? [] : parsed.error.issues
    const lines = [...issues.map((i) => `  ${i.path.join('.')}: ${i.message}`), ...foreign]
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  return parsed.data
}

/**
 * The outbound-host guard's setting alone (src/server/net/outbound-host.ts), read where a
 * hospital's host is checked, in npm start and npm run worker alike; loadEnv has already refused
 * a bad value at start-up.
 */
export function outboundEnv(source: Record<string, string | undefined> = process.env) {
  const value = source.SMTP_ALLOW_PRIVATE_HOSTS
  return envShape
    .pick({ SMTP_ALLOW_PRIVATE_HOSTS: true })
    .parse({ SMTP_ALLOW_PRIVATE_HOSTS: value === '' ? undefined : value })
}

/**
 * The IMPORT_* settings alone, for the import route and job (run in npm start and npm run
 * worker alike); loadEnv has already refused bad values at start-up.
 */
export function importEnv(source: Record<string, string | undefined> = process.env) {
  const keys = ['IMPORT_MAX_IN_FLIGHT', 'IMPORT_MAX_HOSPITAL_BYTES', 'IMPORT_ERROR_ROWS'] as const
  const picked = Object.fromEntries(keys.map((k) => [k, source[k] === '' ? undefined : source[k]]))
  return envShape
    .pick({ IMPORT_MAX_IN_FLIGHT: true, IMPORT_MAX_HOSPITAL_BYTES: true, IMPORT_ERROR_ROWS: true })
    .parse(picked)
}
