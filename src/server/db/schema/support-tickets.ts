import { sql } from 'drizzle-orm'
import {
  bigint,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import {
  commentSides,
  ticketCategories,
  ticketPriorities,
  ticketStatuses,
} from '../../../shared/schemas/support-tickets'
import { hospitals } from './hospitals'

/*
 * Support tickets (issue 28, drizzle/0031_support_tickets.sql, docs/decisions/037): tenant tables
 * under forced RLS. The platform's super admins read them hospital by hospital.
 */

export const supportTickets = pgTable(
  'support_tickets',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    subject: text('subject').notNull(),
    description: text('description').notNull(),
    category: text('category', { enum: ticketCategories }).notNull().default('technical'),
    priority: text('priority', { enum: ticketPriorities }).notNull().default('medium'),
    status: text('status', { enum: ticketStatuses }).notNull().default('open'),
    resolutionNotes: text('resolution_notes'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** The super admin (platform user id) handling the ticket. */
    assignedTo: text('assigned_to'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    index('support_tickets_hospital_created_idx').on(t.hospitalId, t.createdAt),
    index('support_tickets_hospital_status_idx').on(t.hospitalId, t.status),
  ],
)

export const supportTicketComments = pgTable(
  'support_ticket_comments',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    ticketId: uuid('ticket_id').notNull(),
    authorUserId: text('author_user_id').notNull(),
    authorSide: text('author_side', { enum: commentSides }).notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({
      columns: [t.hospitalId, t.ticketId],
      foreignColumns: [supportTickets.hospitalId, supportTickets.id],
    }).onDelete('cascade'),
    index('support_ticket_comments_ticket_idx').on(t.hospitalId, t.ticketId, t.createdAt),
  ],
)

export const supportTicketAttachments = pgTable(
  'support_ticket_attachments',
  {
    hospitalId: uuid('hospital_id').notNull(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    ticketId: uuid('ticket_id').notNull(),
    storageKey: text('storage_key').notNull(),
    filename: text('filename').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: text('uploaded_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({
      columns: [t.hospitalId, t.ticketId],
      foreignColumns: [supportTickets.hospitalId, supportTickets.id],
    }).onDelete('cascade'),
    index('support_ticket_attachments_ticket_idx').on(t.hospitalId, t.ticketId, t.createdAt),
  ],
)
