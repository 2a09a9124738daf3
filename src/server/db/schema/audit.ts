import { sql } from 'drizzle-orm'
import { foreignKey, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { hospitals } from './hospitals'

/** Every mutation writes one row, in the same transaction as the change. */
export const auditEvents = pgTable(
  'audit_events',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    /** Whose session did it (when impersonating: the impersonated user). */
    actorUserId: text('actor_user_id'),
    /** The real person behind an impersonated session; null otherwise. */
    impersonatorUserId: text('impersonator_user_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    summary: text('summary').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({ columns: [t.hospitalId], foreignColumns: [hospitals.id] }),
    index('audit_events_hospital_created_idx').on(t.hospitalId, t.createdAt),
  ],
)
