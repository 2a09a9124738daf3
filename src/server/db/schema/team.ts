import { sql } from 'drizzle-orm'
import {
  check,
  foreignKey,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { hospitals } from './hospitals'

/**
 * Invitations to join a hospital's team (issue 27, drizzle/0020). A tenant table under forced
 * RLS. The link's secret is kept only as a SHA-256 hash (hex); a link works once, for 7 days,
 * unless revoked. No foreign key to users (a platform table keyed by id alone).
 */
export const invitations = pgTable(
  'invitations',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedByUserId: text('invited_by_user_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedUserId: text('accepted_user_id'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    sentCount: integer('sent_count').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }).onDelete('cascade'),
    uniqueIndex('invitations_hospital_token_idx').on(t.hospitalId, t.tokenHash),
    uniqueIndex('invitations_hospital_open_email_idx')
      .on(t.hospitalId, t.email)
      .where(sql`accepted_at IS NULL AND revoked_at IS NULL`),
    check(
      'invitations_role_check',
      sql`role in ('admin', 'doctor', 'nurse', 'receptionist', 'viewer')`,
    ),
    check('invitations_email_check', sql`email = lower(email) and length(email) <= 254`),
    check('invitations_token_hash_check', sql`token_hash ~ '^[0-9a-f]{64}$'`),
  ],
)
