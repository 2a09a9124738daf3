import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import type { FaqCategory } from '../../../shared/schemas/faqs'
import { hospitals } from './hospitals'

/**
 * A hospital's FAQs (issue 28, drizzle/0030): a tenant table under forced RLS. The answer is
 * the author's plain text with a tiny formatting syntax (src/shared/faq-format.ts), escaped on
 * every output; suggestion_key marks the pre-built ones so 'Add All' never duplicates them.
 * is_public is the FAQ's visibility (drizzle/0045): true for patients (the public page
 * /h/<slug>/faq), false for staff-only help; 'Add All' adds the pre-built how-tos staff-only.
 */
export const faqs = pgTable(
  'faqs',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    category: text('category').$type<FaqCategory>().notNull().default('general'),
    sortOrder: integer('sort_order').notNull().default(0),
    isPublic: boolean('is_public').notNull().default(true),
    suggestionKey: text('suggestion_key'),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'faqs_pkey', columns: [t.hospitalId, t.id] }),
    index('faqs_hospital_order_idx').on(t.hospitalId, t.sortOrder, t.createdAt, t.id),
    uniqueIndex('faqs_hospital_suggestion_idx')
      .on(t.hospitalId, t.suggestionKey)
      .where(sql`suggestion_key IS NOT NULL`),
    check('faqs_question_check', sql`length(${t.question}) BETWEEN 1 AND 300`),
    check('faqs_answer_check', sql`length(${t.answer}) BETWEEN 1 AND 5000`),
    check(
      'faqs_category_check',
      sql`${t.category} IN ('general', 'technical', 'billing', 'features', 'troubleshooting')`,
    ),
    check('faqs_sort_order_check', sql`${t.sortOrder} BETWEEN 0 AND 100000`),
  ],
)
