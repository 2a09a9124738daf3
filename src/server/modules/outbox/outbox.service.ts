import { desc } from 'drizzle-orm'
import { type MailDriver, OUTBOX_PAGE_SIZE, type OutboxEntry } from '../../../shared/schemas/outbox'
import type { AppDb } from '../../db/client'
import { emailOutbox } from '../../db/schema/security'
import { withPlatform } from '../../db/tenant'
import { maskSecrets } from '../../integrations/email/mask-secrets'

type OutboxRow = typeof emailOutbox.$inferSelect

/**
 * One email as the super admin sees it. The mailer stores secrets masked already; masking again
 * on reading covers rows kept before that rule (a link's fragment and token-like query values).
 */
export function toOutboxEntry(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    purpose: row.purpose,
    to: row.toAddress,
    subject: maskSecrets(row.subject),
    text: row.textBody === null ? null : maskSecrets(row.textBody),
    driver: row.driver as MailDriver,
    status: row.status,
    error: row.error,
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
  }
}

/** The newest emails of the platform outbox, newest first (super admins only). */
export async function listOutbox(opts: {
  db: AppDb
  limit?: number | undefined
}): Promise<OutboxEntry[]> {
  const rows = await withPlatform(opts.db, (tx) =>
    tx
      .select()
      .from(emailOutbox)
      .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
      .limit(opts.limit ?? OUTBOX_PAGE_SIZE),
  )
  return rows.map(toOutboxEntry)
}
