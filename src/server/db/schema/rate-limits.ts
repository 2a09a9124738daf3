import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Request counts per key in fixed windows, shared by every instance (ENGINEERING.md "Runs as
 * many instances"): the per-IP limits of @fastify/rate-limit (`route:` keys) and better-auth's
 * own limits (`auth:` keys). A platform table; rows whose window is over are pruned now and
 * then (src/server/http/rate-limit-store.ts).
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull().default(0),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_expires_idx').on(t.expiresAt)],
)
