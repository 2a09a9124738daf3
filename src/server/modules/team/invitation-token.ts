import { createHash, randomBytes } from 'node:crypto'
import type { MailMessage } from '../../integrations/email/mailer'
import { INVITATION_DAYS } from '../../../shared/schemas/team'
import { roleLabels, type StaffRole } from '../../../shared/roles'

/**
 * An invitation link's secret: '<hospital id without dashes>.<32 random bytes, base64url>'.
 * The hospital part lets the public acceptance page open the right tenant (the table is under
 * forced RLS); only the SHA-256 of the whole token is stored.
 */
export function newInvitationToken(hospitalId: string): { token: string; hash: string } {
  const token = `${hospitalId.replaceAll('-', '').toLowerCase()}.${randomBytes(32).toString('base64url')}`
  return { token, hash: hashInvitationToken(token) }
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** The hospital id a (format-checked) token names. */
export function hospitalIdOfToken(token: string): string {
  const hex = token.slice(0, 32)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The acceptance page's address: the secret travels in the fragment (never sent to servers or logs). */
export function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/invite#${token}`
}

export function invitationExpiry(from = new Date()): Date {
  return new Date(from.getTime() + INVITATION_DAYS * 24 * 3600 * 1000)
}

export function invitationEmail(opts: {
  to: string
  name: string
  hospitalName: string
  role: StaffRole
  url: string
}): MailMessage {
  return {
    to: opts.to,
    purpose: 'team-invitation',
    subject: `You are invited to join ${opts.hospitalName} on Arogya CRM`,
    text: [
      `Namaste ${opts.name},`,
      '',
      `You have been invited to join ${opts.hospitalName} on Arogya CRM as ${roleLabels[opts.role]}.`,
      '',
      'Open this link to set your password and sign in:',
      opts.url,
      '',
      `The link works once and is valid for ${INVITATION_DAYS} days. If you were not expecting this invitation, you can ignore this email.`,
    ].join('\n'),
  }
}
