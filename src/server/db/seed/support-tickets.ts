import { eq, sql } from 'drizzle-orm'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { supportTicketComments, supportTickets } from '../schema/support-tickets'

const DAY = 86_400_000

/**
 * Three support tickets for the first demo hospital (issue 28), one per state the hospital
 * sees most (open, in progress, resolved two days ago so Reopen shows), each with a comment.
 * Attachments are not seeded (the storage module had not landed when this was written).
 * Runs in the seed's transaction; leaves the role as it found it (the connecting role).
 */
export async function seedDemoSupportTickets(
  tx: Tx,
  demo: readonly { key: string; email: string }[],
  now: Date,
): Promise<boolean> {
  const first = demo[0]
  if (!first) return false
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const [h] = await tx
    .select({ id: hospitals.id })
    .from(hospitals)
    .where(eq(hospitals.email, first.email))
  if (!h) return false
  const idOf = async (email: string) =>
    (await tx.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]?.id
  const admin = await idOf(`admin@${first.key}.demo`)
  const desk = (await idOf(`receptionist@${first.key}.demo`)) ?? admin
  const platform = await idOf('superadmin@arogya.demo')
  if (!admin || !desk) return false
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${h.id}, true)`,
  )
  const [any] = await tx.select({ id: supportTickets.id }).from(supportTickets).limit(1)
  let changed = false
  if (!any) {
    const at = (days: number) => new Date(now.getTime() - days * DAY)
    const rows = await tx
      .insert(supportTickets)
      .values([
        {
          hospitalId: h.id,
          subject: 'WhatsApp reminders stuck in queued',
          description:
            'Since yesterday evening the 24-hour appointment reminders show as queued and patients say they did not get them. SMS reminders are going out fine.',
          category: 'integration' as const,
          priority: 'high' as const,
          status: 'open' as const,
          createdBy: desk,
          createdAt: at(0.2),
          updatedAt: at(0.2),
        },
        {
          hospitalId: h.id,
          subject: 'Invoice PDF should show our GSTIN under the clinic name',
          description:
            'Our CA asked for the GSTIN to appear right under the clinic name on every invoice PDF, as on our old printed bills.',
          category: 'billing' as const,
          priority: 'medium' as const,
          status: 'in_progress' as const,
          assignedTo: platform ?? null,
          createdBy: admin,
          createdAt: at(2),
          updatedAt: at(1),
        },
        {
          hospitalId: h.id,
          subject: 'Training session for two new receptionists',
          description:
            'Two new front-desk staff join on Monday. Could someone walk them through booking, billing and the leads screen for 30 minutes?',
          category: 'training' as const,
          priority: 'low' as const,
          status: 'resolved' as const,
          resolutionNotes:
            'Held a 40-minute video session on Thursday; the recording link is in the comments.',
          resolvedAt: at(2),
          assignedTo: platform ?? null,
          createdBy: admin,
          createdAt: at(5),
          updatedAt: at(2),
        },
      ])
      .returning({ id: supportTickets.id })
    const [open, progress, resolved] = rows
    const comments = [
      open && {
        ticketId: open.id,
        authorUserId: desk,
        authorSide: 'hospital' as const,
        body: 'It is the same for Dr. Kulkarni’s and Dr. Patil’s patients.',
        createdAt: at(0.1),
      },
      progress &&
        platform && {
          ticketId: progress.id,
          authorUserId: platform,
          authorSide: 'platform' as const,
          body: 'Thanks, we are adding a GSTIN line to the invoice header. Expect it this week.',
          createdAt: at(1),
        },
      resolved &&
        platform && {
          ticketId: resolved.id,
          authorUserId: platform,
          authorSide: 'platform' as const,
          body: 'The session recording and slides are shared with admin@ by email.',
          createdAt: at(2),
        },
    ].filter((c): c is NonNullable<typeof c> & object => Boolean(c))
    if (comments.length)
      await tx
        .insert(supportTicketComments)
        .values(comments.map((c) => ({ ...c, hospitalId: h.id })))
    changed = true
  }
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return changed
}
