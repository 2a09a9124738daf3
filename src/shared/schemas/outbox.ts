import { z } from 'zod'

/** How an email left (or did not leave) the platform. */
export const mailDrivers = ['sandbox', 'smtp'] as const
export type MailDriver = (typeof mailDrivers)[number]

/** sandbox: kept in the outbox only; sent: accepted by the SMTP server; failed: not sent. */
export const mailStatuses = ['sandbox', 'sent', 'failed'] as const
export type MailStatusValue = (typeof mailStatuses)[number]

/** The most emails GET /api/admin/outbox returns (and its default). */
export const OUTBOX_PAGE_SIZE = 100

/** GET /api/admin/outbox?limit=1..100: the newest emails first. */
export const listOutboxQuery = z.strictObject({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(OUTBOX_PAGE_SIZE, { message: `limit must be at most ${OUTBOX_PAGE_SIZE}` })
    .optional(),
})
export type ListOutboxQuery = z.input<typeof listOutboxQuery>

/** One email as the super admin sees it; text is null for mail sent through SMTP (not kept). */
export const outboxEntry = z.object({
  id: z.string(),
  createdAt: z.string(),
  purpose: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string().nullable(),
  driver: z.enum(mailDrivers),
  status: z.enum(mailStatuses),
  error: z.string().nullable(),
  sentAt: z.string().nullable(),
})
export type OutboxEntry = z.infer<typeof outboxEntry>

export const outboxList = z.array(outboxEntry)
