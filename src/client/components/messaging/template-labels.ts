import type { MessageChannel, TemplateApprovalStatus, TemplateCategory } from '@/shared/messaging'

export const categoryLabels: Record<TemplateCategory, string> = {
  utility: 'Utility',
  marketing: 'Marketing',
  service_implicit: 'Service (implicit)',
  service_explicit: 'Service (explicit)',
  promotional: 'Promotional',
  transactional: 'Transactional',
}

/** The categories a channel's templates may have: WhatsApp's, or India's DLT SMS ones. */
export function categoriesFor(channel: MessageChannel): TemplateCategory[] {
  if (channel === 'whatsapp') return ['utility', 'marketing']
  if (channel === 'sms')
    return ['service_implicit', 'service_explicit', 'promotional', 'transactional']
  return ['transactional', 'marketing']
}

export const approvalLabels: Record<TemplateApprovalStatus, string> = {
  not_required: 'No approval needed',
  pending: 'Pending approval',
  approved: 'Approved',
  rejected: 'Rejected',
  paused: 'Paused',
}

export const approvalVariants = {
  not_required: 'secondary',
  pending: 'yellow',
  approved: 'green',
  rejected: 'destructive',
  paused: 'outline',
} as const satisfies Record<TemplateApprovalStatus, string>

/**
 * A template's approval in words: a WhatsApp template that names no provider template is not
 * approved by WhatsApp (it needs one before it can start a conversation), never "No approval
 * needed".
 */
export function approvalLabel(t: {
  channel: MessageChannel
  approvalStatus: TemplateApprovalStatus
}) {
  if (t.channel === 'whatsapp' && t.approvalStatus === 'not_required') return 'Needs approval'
  return approvalLabels[t.approvalStatus]
}
