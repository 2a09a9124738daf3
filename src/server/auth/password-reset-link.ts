import { AsyncLocalStorage } from 'node:async_hooks'
import { eq } from 'drizzle-orm'
import { RESET_LINK_MINUTES } from '../../shared/schemas/password-reset'
import type { AppDb } from '../db/client'
import { user } from '../db/schema/auth'
import type { Mailer, MailMessage, MailStatus } from '../integrations/email/mailer'

/**
 * Password reset links (issue 40, item 7). better-auth makes the token (its verification row,
 * `reset-password:<token>`, valid RESET_LINK_MINUTES, consumed by its /reset-password) and hands
 * it to `sendResetPassword` (auth.ts), which lands here: the link is built on our own page,
 * /reset-password#<token> (a fragment never reaches a server or its logs), and mailed with the
 * token declared as a secret, so the outbox keeps it masked (mask-secrets.ts).
 */

/** Why an account may not get back in by a reset, or null when it may. */
export type ResetRefusal = 'suspended' | 'inactive' | 'missing'

/**
 * The same account checks as sign-in (auth.ts, the session hook): a suspended account (by its
 * hospital admin or by the platform) or an inactive one (removed from its team) gets no link,
 * and its reset is refused.
 */
export async function resetRefusal(db: AppDb, userId: string): Promise<ResetRefusal | null> {
  const [row] = await db
    .select({ banned: user.banned, isActive: user.isActive })
    .from(user)
    .where(eq(user.id, userId))
  if (!row) return 'missing'
  if (row.banned) return 'suspended'
  if (!row.isActive) return 'inactive'
  return null
}

/** The reset page's address; the token travels in the fragment. */
export function passwordResetUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/reset-password#${token}`
}

export function passwordResetEmail(opts: {
  to: string
  name: string
  url: string
  token: string
  /** Sent by the hospital's admin from the team screen, rather than asked for by the user. */
  byAdmin?: boolean
}): MailMessage {
  return {
    to: opts.to,
    purpose: 'password-reset',
    secrets: [opts.token],
    subject: 'Reset your Arogya CRM password',
    text: [
      `Namaste ${opts.name || opts.to},`,
      '',
      opts.byAdmin
        ? 'Your hospital administrator sent you a link to choose a new Arogya CRM password.'
        : 'Someone (perhaps you) asked to reset the password of your Arogya CRM account.',
      '',
      'Open this link to choose a new password:',
      opts.url,
      '',
      `The link works once and is valid for ${RESET_LINK_MINUTES} minutes. Choosing a new password signs you out on every device; two-factor authentication, if you use it, stays on.`,
      'If you did not ask for this, you can ignore this email: your password stays as it is.',
    ].join('\n'),
  }
}

/** What happened to one link's email: mailed, or not mailed because the account may not reset. */
export type ResetDelivery = MailStatus | 'skipped'

interface DeliverySlot {
  byAdmin: boolean
  delivery?: Promise<ResetDelivery>
}

const slots = new AsyncLocalStorage<DeliverySlot>()

/**
 * Runs `fn` (a call of better-auth's /request-password-reset) and hands back the delivery of
 * the email it started, without waiting for it: the caller decides whether to wait (the admin
 * screen reports the email's status) or not (the public form answers at once, so its timing
 * does not tell whether the address has an account). Undefined when no link was made.
 */
export async function withResetDelivery<T>(
  options: { byAdmin: boolean },
  fn: () => Promise<T>,
): Promise<{ result: T; delivery: Promise<ResetDelivery> | undefined }> {
  const slot: DeliverySlot = { byAdmin: options.byAdmin }
  const result = await slots.run(slot, fn)
  return { result, delivery: slot.delivery }
}

export interface ResetLinkDeps {
  db: AppDb
  mailer: Mailer
  baseURL: string | undefined
  log?: { error: (obj: object, msg: string) => void } | undefined
}

/**
 * better-auth's `sendResetPassword`: checks the account may reset (else no email), then mails
 * the link. Inside withResetDelivery the work is handed to the caller; otherwise awaited.
 */
export async function sendPasswordResetLink(
  deps: ResetLinkDeps,
  link: { user: { id: string; email: string; name?: string | null }; token: string },
  request: Request | undefined,
): Promise<void> {
  const slot = slots.getStore()
  const work = (async (): Promise<ResetDelivery> => {
    if ((await resetRefusal(deps.db, link.user.id)) !== null) return 'skipped'
    const origin = deps.baseURL ?? (request ? new URL(request.url).origin : null)
    if (!origin) return 'failed'
    const url = passwordResetUrl(origin, link.token)
    return deps.mailer.send(
      passwordResetEmail({
        to: link.user.email,
        name: link.user.name ?? '',
        url,
        token: link.token,
        byAdmin: slot?.byAdmin ?? false,
      }),
    )
  })()
  if (slot) {
    slot.delivery = work
    return
  }
  await work
}
