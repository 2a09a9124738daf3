import nodemailer from 'nodemailer'
import type { SendFailure } from '../messaging/http'
import type { MessageProvider } from '../messaging/provider'

/**
 * A hospital's own SMTP server (Gmail/Workspace, Mailgun, SES… or any), through nodemailer as
 * the platform mailer (integrations/email/mailer.ts) uses it. The Message-ID is
 * `<idempotency key@arogya.local>`, so a bounce or a reply names the communication. TLS from
 * the start on `secure` (465); otherwise STARTTLS is required, except on a loopback host (a
 * local relay or the test fake), so credentials never cross a network in clear. SMTP has no
 * look-up: lookup() is 'unknown'.
 */
export interface SmtpSettings {
  host: string
  port: number
  secure: boolean
  user: string
  password: string
  fromEmail: string
  fromName: string
}

/** Connect, greeting and idle limit (the pipeline's signal may end it sooner). */
export const SMTP_PROVIDER_TIMEOUT_MS = 10_000

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1'])

export function smtpProvider(
  settings: SmtpSettings,
  options: { timeoutMs?: number | undefined } = {},
): MessageProvider {
  const timeout = options.timeoutMs ?? SMTP_PROVIDER_TIMEOUT_MS
  return {
    name: 'smtp',
    channel: 'email',
    async send(message, signal) {
      signal.throwIfAborted()
      const transport = nodemailer.createTransport({
        host: settings.host,
        port: settings.port,
        secure: settings.secure,
        requireTLS: !settings.secure && !LOOPBACK.has(settings.host),
        auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
        dnsTimeout: timeout,
      })
      const messageId = `<${message.idempotencyKey}@arogya.local>`
      // nodemailer takes no AbortSignal: the send is raced against it, and the connection,
      // left behind, ends at its own timeout.
      let onAbort = () => {}
      const aborted = new Promise<never>((_resolve, reject) => {
        onAbort = () => reject(signal.reason as Error)
        signal.addEventListener('abort', onAbort, { once: true })
      })
      const sending = transport.sendMail({
        from: { name: settings.fromName, address: settings.fromEmail },
        to: message.to,
        subject: message.subject?.trim() || `A message from ${settings.fromName}`,
        text: message.text,
        messageId,
      })
      sending.catch(() => undefined)
      try {
        const info = (await Promise.race([sending, aborted])) as {
          messageId?: string
          response?: string
        }
        return {
          ok: true,
          providerMessageId: info.messageId ?? messageId,
          status: 'sent',
          detail: `The SMTP server accepted the email: ${(info.response ?? '').slice(0, 120)}`,
        }
      } catch (error) {
        if (signal.aborted) throw signal.reason
        return smtpFailure(error)
      } finally {
        signal.removeEventListener('abort', onAbort)
        transport.close()
      }
    },
    async lookup(_query, signal) {
      signal.throwIfAborted()
      return { found: 'unknown' }
    },
  }
}

/** nodemailer's error codes and the server's reply code, in the rules' kinds. */
export function smtpFailure(error: unknown): SendFailure {
  const e = (error ?? {}) as { code?: unknown; responseCode?: unknown; command?: unknown }
  const code = typeof e.code === 'string' ? e.code : 'SMTP'
  const reply = typeof e.responseCode === 'number' ? e.responseCode : undefined
  const tag = reply ? `${code} ${reply}` : code
  if (code === 'EAUTH' || reply === 535 || reply === 534 || reply === 530) {
    return {
      ok: false,
      kind: 'auth',
      code: tag,
      reason: 'The SMTP server refused the user name or password: check Settings → Integrations.',
    }
  }
  if (
    ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED'].includes(code) ||
    (reply && reply >= 400 && reply < 500)
  ) {
    return {
      ok: false,
      kind: 'temporary',
      code: tag,
      reason: 'The email server could not be reached or is busy; the email will be retried.',
    }
  }
  if (
    code === 'EENVELOPE' &&
    reply &&
    [550, 551, 553, 501].includes(reply) &&
    e.command === 'RCPT TO'
  ) {
    return {
      ok: false,
      kind: 'invalid_number',
      code: tag,
      reason: 'The email server refused this address.',
    }
  }
  return {
    ok: false,
    kind: 'rejected',
    code: tag,
    reason: `The email server refused the email (${tag}).`,
  }
}
