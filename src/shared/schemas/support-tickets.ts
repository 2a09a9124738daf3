import { z } from 'zod'

/*
 * Support tickets (issue 28, docs/decisions/037-support-tickets.md).
 * Hospital side (support:submit; support:read_all sees every ticket of the hospital, others their own):
 *   GET    /api/support-tickets                              list, newest first
 *   POST   /api/support-tickets                              submit {subject, description, category, priority}
 *   GET    /api/support-tickets/:id                          detail with comments and attachments
 *   POST   /api/support-tickets/:id/comments                 {body}
 *   POST   /api/support-tickets/:id/reopen                   resolved within 7 days -> open
 *   POST   /api/support-tickets/:id/attachments              raw file, X-Filename header
 *   GET    /api/support-tickets/:id/attachments/:attachmentId download
 *   DELETE /api/support-tickets/:id/attachments/:attachmentId the uploader, while the ticket is open
 * Platform side (super admins):
 *   GET    /api/admin/support-tickets?status=                every hospital's tickets
 *   GET    /api/admin/support-tickets/summary                open tickets by age
 *   GET    /api/admin/support-tickets/:hospitalId/:id         detail
 *   POST   /api/admin/support-tickets/:hospitalId/:id/assign  {assignedTo}
 *   POST   /api/admin/support-tickets/:hospitalId/:id/status  {status, resolutionNotes}
 *   POST   /api/admin/support-tickets/:hospitalId/:id/comments {body}
 *   GET    /api/admin/support-tickets/:hospitalId/:id/attachments/:attachmentId download
 */

/** Spec section 9, "Ticket". */
export const ticketCategories = [
  'technical',
  'billing',
  'feature_request',
  'bug_report',
  'training',
  'integration',
  'other',
] as const
export type TicketCategory = (typeof ticketCategories)[number]

/** Spec section 4. */
export const ticketPriorities = ['low', 'medium', 'high', 'urgent'] as const
export type TicketPriority = (typeof ticketPriorities)[number]
export const ticketStatuses = ['open', 'in_progress', 'resolved', 'closed'] as const
export type TicketStatus = (typeof ticketStatuses)[number]
export const commentSides = ['hospital', 'platform'] as const
export type CommentSide = (typeof commentSides)[number]

export const categoryLabels: Record<TicketCategory, string> = {
  technical: 'Technical',
  billing: 'Billing',
  feature_request: 'Feature request',
  bug_report: 'Bug report',
  training: 'Training',
  integration: 'Integration',
  other: 'Other',
}
export const priorityLabels: Record<TicketPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
}
export const statusLabels: Record<TicketStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  resolved: 'Resolved',
  closed: 'Closed',
}

export const SUBJECT_MAX = 200
export const DESCRIPTION_MAX = 5000
export const COMMENT_MAX = 5000
/** A resolved ticket may be reopened by the hospital for this many days. */
export const REOPEN_DAYS = 7
/** Attachments a ticket may hold. */
export const MAX_ATTACHMENTS = 10

/** Spec section 9: 50 MB on Enterprise and above, 10 MB otherwise. */
export const ATTACHMENT_LARGE_PLANS = ['enterprise', 'hospital_enterprise', 'custom_enterprise']
export function attachmentLimitBytes(plan: string): number {
  return (ATTACHMENT_LARGE_PLANS.includes(plan) ? 50 : 10) * 1024 * 1024
}

/** What the file picker accepts; the server checks the content (magic bytes) too. */
export const attachmentExtensions = [
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'mp4',
  'mov',
  'webm',
  'pdf',
  'doc',
  'docx',
  'txt',
] as const
export const ATTACHMENT_ACCEPT = attachmentExtensions.map((e) => `.${e}`).join(',')

/** The file's extension when it is one the tickets accept, else null. */
export function attachmentExtension(name: string): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase()
  return ext && (attachmentExtensions as readonly string[]).includes(ext) ? ext : null
}

const text = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${label} must be at most ${max} characters` })

/** Spec section 7: attachments as metadata only; the files follow, one upload each. */
export const attachmentMeta = z.strictObject({
  name: z.string().min(1).max(200),
  size: z.number().int().min(1),
  type: z.string().max(200).optional(),
})

export const createTicketInput = z.strictObject({
  subject: text('Subject', SUBJECT_MAX),
  description: text('Description', DESCRIPTION_MAX),
  category: z.enum(ticketCategories, { message: 'Choose a category' }).default('technical'),
  priority: z.enum(ticketPriorities, { message: 'Choose a priority' }).default('medium'),
  attachments: z.array(attachmentMeta).max(MAX_ATTACHMENTS).optional(),
})
export type CreateTicketInput = z.input<typeof createTicketInput>
export type CreateTicketData = z.output<typeof createTicketInput>

export const commentInput = z.strictObject({ body: text('Comment', COMMENT_MAX) })

export const ticketParams = z.strictObject({ id: z.uuid({ message: 'Must be a valid id' }) })
export const attachmentParams = z.strictObject({
  id: z.uuid({ message: 'Must be a valid id' }),
  attachmentId: z.uuid({ message: 'Must be a valid id' }),
})
export const adminAttachmentParams = z.strictObject({
  hospitalId: z.uuid({ message: 'Must be a valid id' }),
  id: z.uuid({ message: 'Must be a valid id' }),
  attachmentId: z.uuid({ message: 'Must be a valid id' }),
})
export const adminTicketParams = z.strictObject({
  hospitalId: z.uuid({ message: 'Must be a valid id' }),
  id: z.uuid({ message: 'Must be a valid id' }),
})

export const adminListQuery = z.strictObject({
  status: z.enum(ticketStatuses, { message: 'Unknown status' }).optional(),
})

export const assignInput = z.strictObject({
  /** A super admin's user id, or null to unassign. */
  assignedTo: z.string().min(1).max(100).nullable(),
})

export const statusInput = z.strictObject({
  status: z.enum(ticketStatuses, { message: 'Unknown status' }),
  resolutionNotes: z
    .string()
    .trim()
    .max(5000, { message: 'Resolution notes must be at most 5000 characters' })
    .optional(),
})

/** Platform moves (spec: open -> in_progress -> resolved -> closed). */
export const platformTransitions: Record<TicketStatus, readonly TicketStatus[]> = {
  open: ['in_progress', 'resolved', 'closed'],
  in_progress: ['open', 'resolved', 'closed'],
  resolved: ['in_progress', 'closed'],
  closed: [],
}

export interface TicketAttachment {
  id: string
  name: string
  size: number
  type: string
  url: string
  createdAt: string
}

export interface TicketComment {
  id: string
  side: CommentSide
  author: string
  body: string
  createdAt: string
}

export interface SupportTicket {
  id: string
  hospitalId: string
  subject: string
  description: string
  category: TicketCategory
  priority: TicketPriority
  status: TicketStatus
  attachments: TicketAttachment[]
  commentCount: number
  resolutionNotes: string | null
  resolvedAt: string | null
  assignedTo: string | null
  createdBy: string | null
  createdAt: string
  updatedAt: string
  /** The hospital may reopen it now (resolved within the last 7 days). */
  canReopen: boolean
}

export interface SupportTicketDetail extends SupportTicket {
  comments: TicketComment[]
}

export interface AdminSupportTicket extends SupportTicket {
  hospitalName: string
  assignedToName: string | null
}

export interface SupportTicketSummary {
  open: { underOneDay: number; oneToThreeDays: number; overThreeDays: number; total: number }
  inProgress: number
}

/** Whether a ticket in this state may be reopened by the hospital at `now`. */
export function mayReopen(
  status: TicketStatus,
  resolvedAt: Date | null,
  now = Date.now(),
): boolean {
  return (
    status === 'resolved' &&
    resolvedAt !== null &&
    now - resolvedAt.getTime() <= REOPEN_DAYS * 24 * 60 * 60 * 1000
  )
}
