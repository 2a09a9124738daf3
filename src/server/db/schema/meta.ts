import {
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { hospitals } from './hospitals'

export const metaConnectionStatuses = ['ok', 'needs_attention'] as const
export type MetaConnectionStatus = (typeof metaConnectionStatuses)[number]

/**
 * A hospital's Meta (Facebook/Instagram) lead-ads connection: a tenant table (RLS forced,
 * drizzle/0011_meta.sql). The three secrets are stored only as encryptSecret() output
 * (AES-256-GCM, context `meta:<hospital id>:<field>`); no API returns them.
 */
export const metaConnections = pgTable(
  'meta_connections',
  {
    hospitalId: uuid('hospital_id').primaryKey(),
    pageId: text('page_id'),
    pageAccessTokenEnc: text('page_access_token_enc'),
    appSecretEnc: text('app_secret_enc'),
    verifyTokenEnc: text('verify_token_enc'),
    /** needs_attention: Meta refused the token (code 190); staff must paste a new one. */
    status: text('status', { enum: metaConnectionStatuses }).notNull().default('ok'),
    lastError: text('last_error'),
    /** The last successful Sync: the next one asks Meta for leads since then. */
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    /**
     * Why the page's webhook no longer reaches this hospital (another hospital took the page
     * over, the super admin released it); cleared by a new claim or new credentials.
     */
    webhookError: text('webhook_error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] })],
)

/**
 * A platform table (docs/decisions/016): which hospital a Facebook page belongs to, so the
 * public webhook can route a delivery (and the verify-token handshake) before any tenant is
 * known. Kept in step with meta_connections in the same tenant transaction; app_user sees and
 * writes only its own hospital's row; the platform (app_platform: the webhook, a takeover, the
 * super admin) reads and moves any. One hospital per page: page_id is the key. A claim lapses
 * when the hospital's token stops proving the page, and another hospital's fresh proof takes
 * it over (docs/decisions/021).
 */
export const metaPages = pgTable(
  'meta_pages',
  {
    pageId: text('page_id').primaryKey(),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the hospital's webhook verify token: the handshake finds it by hash. */
    verifyTokenSha256: text('verify_token_sha256'),
    /** When this hospital proved the page (Test Connection) and took the route. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last time the hospital's token proved the page (Test Connection, Sync, a fetch). */
    lastProvenAt: timestamp('last_proven_at', { withTimezone: true }).notNull().defaultNow(),
    /** Deliveries naming the page that failed the signature check since the last accepted one. */
    signatureFailures: integer('signature_failures').notNull().default(0),
    signatureFailingSince: timestamp('signature_failing_since', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('meta_pages_hospital_idx').on(t.hospitalId),
    index('meta_pages_verify_token_idx').on(t.verifyTokenSha256),
  ],
)
