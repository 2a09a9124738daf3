import nodemailer from 'nodemailer'
import { atLeast, type CheckedHost, outboundPolicy } from '../../net/outbound-host'
import type { SendFailure } from '../messaging/http'
import type { MessageProvider } from '../messaging/provider'
import { checkSmtpHost, SMTP_UNREACHABLE_MESSAGE } from './smtp-host'

/**
 * A hospital's own SMTP server (Gmail/Workspace, Mailgun, SES… or any), through nodemailer as
 * the platform mailer (integrations/email/mailer.ts) uses it. The Message-ID is
 * `<idempotency key@arogya.local>`, so a bounce or a reply names the communication.
 *
 * Before every connection the host passes the outbound-host guard (smtp-host.ts): a mail port,
 * a public address (unless SMTP_ALLOW_PRIVATE_HOSTS), and nodemailer connects to that checked
 * address, with the typed name as TLS server name, so DNS cannot change it in between. TLS from
 * the start on `secure` (465); otherwise STARTTLS is required, except to a private address an
 * on-premise install allowed (its own relay). Every failure to reach the server is one message
 * (SMTP_UNREACHABLE_MESSAGE), answered no sooner than the guard's minimum, and nothing the server
 * said (its banner, its replies' text) is passed on. SMTP has no look-up: lookup() is 'unknown'.
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

/** Every failure to reach the server: one code, one reason. */
export const SMTP_UNREACHABLE_CODE = 'SMTP_CONNECT'

const unreachable = (): SendFailure => ({
  ok: false,
  kind: 'temporary',
  code: SMTP_UNREACHABLE_CODE,
  reason: SMTP_UNREACHABLE_MESSAGE,
})

/** nodemailer's options for one send: the checked address, the typed name for TLS. */
export function smtpTransportOptions(
  settings: SmtpSettings,
  checked: CheckedHost,
  timeout: number,
) {
  return {
    host: checked.address,
    port: settings.port,
    secure: settings.secure,
    // The certificate is checked against the name typed, not the address connected to.
    servername: checked.host,
    tls: { servername: checked.host },
    requireTLS: !settings.secure && !checked.private,
    auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
  }
}

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
      const started = Date.now()
      const floor = outboundPolicy().minRefusalMs
      let checked: CheckedHost
      try {
        checked = await checkSmtpHost(settings.host, settings.port)
      } catch {
        signal.throwIfAborted()
        return unreachable()
      }
      const transport = nodemailer.createTransport(smtpTransportOptions(settings, checked, timeout))
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
          detail: 'The SMTP server accepted the email.',
        }
      } catch (error) {
        if (signal.aborted) throw signal.reason
        await atLeast(started, floor, signal)
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

/**
 * nodemailer's errors in the rules' kinds. Only the server's reply code is kept, never its text:
 * a failure without one (refused, unknown host, timeout, TLS) is SMTP_UNREACHABLE_MESSAGE. A
 * refused password is told apart, since the server answering it was reached over TLS at a
 * public address the guard allowed, so it tells nothing of the internal network.
 */
export function smtpFailure(error: unknown): SendFailure {
  const e = (error ?? {}) as { code?: unknown; responseCode?: unknown; command?: unknown }
  const code = typeof e.code === 'string' ? e.code : ''
  const reply = typeof e.responseCode === 'number' ? e.responseCode : undefined
  if (code === 'EAUTH' || reply === 535 || reply === 534 || reply === 530) {
    return {
      ok: false,
      kind: 'auth',
      code: 'SMTP_AUTH',
      reason: 'The mail server refused the user name or password: check Settings → Integrations.',
    }
  }
  if (reply === undefined) {
    if (code === 'EENVELOPE' || code === 'EMESSAGE') {
      return {
        ok: false,
        kind: 'rejected',
        code: 'SMTP_MESSAGE',
        reason: 'The email could not be sent to this address.',
      }
    }
    return unreachable()
  }
  const tag = `SMTP ${reply}`
  if (reply >= 400 && reply < 500) {
    return {
      ok: false,
      kind: 'temporary',
      code: tag,
      reason: 'The mail server is busy; the email will be retried.',
    }
  }
  if ([550, 551, 553, 501].includes(reply) && e.command === 'RCPT TO') {
    return {
      ok: false,
      kind: 'invalid_number',
      code: tag,
      reason: 'The mail server refused this address.',
    }
  }
  return {
    ok: false,
    kind: 'rejected',
    code: tag,
    reason: `The mail server refused the email (${tag}).`,
  }
}
