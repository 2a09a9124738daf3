import type { MailMessage } from '../integrations/email/mailer'

/** The token of better-auth's verification link (?token=…), or none. */
function tokenOf(url: string): string[] {
  try {
    const token = new URL(url).searchParams.get('token')
    return token ? [token] : []
  } catch {
    return []
  }
}

/** The activation email of a new trial account; its token is kept only masked in the outbox. */
export function verificationEmail(to: string, url: string): MailMessage {
  return {
    to,
    purpose: 'verify-email',
    secrets: tokenOf(url),
    subject: 'Activate your Arogya CRM trial',
    text: [
      'Welcome to Arogya CRM.',
      '',
      'Open this link to activate your account and start your 14-day free trial:',
      url,
      '',
      'The link is valid for 24 hours. If you did not sign up, you can ignore this email.',
    ].join('\n'),
  }
}

/**
 * Sent instead when someone starts a trial with an address that already has an account: the
 * owner learns of it, and the sign-up form cannot tell an attacker that the address exists.
 */
export function existingAccountEmail(to: string, signInUrl: string): MailMessage {
  return {
    to,
    purpose: 'trial-existing-account',
    subject: 'You already have an Arogya CRM account',
    text: [
      'Someone (perhaps you) tried to start an Arogya CRM trial with this email address.',
      'An account with this address already exists, so nothing was changed.',
      '',
      `Sign in here: ${signInUrl}`,
      '',
      'If this was not you, you can ignore this email.',
    ].join('\n'),
  }
}
