import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { AppDb } from '../../db/client'
import { emailOutbox } from '../../db/schema/security'
import { withPlatform } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { maskSecrets } from './mask-secrets'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html?: string
  /** What the email is for ('verify-email', ...): kept in the outbox, used in file names. */
  purpose: string
  /**
   * Values in the email that give access (a link's token): the outbox keeps them masked
   * (mask-secrets.ts; links' fragments and token-like query values are masked anyway).
   */
  secrets?: readonly string[] | undefined
}

export type MailStatus = 'sandbox' | 'sent' | 'failed'

export interface Mailer {
  readonly driver: 'sandbox' | 'smtp'
  /**
   * False in production without SMTP_URL: an email whose link gives access (an invitation, an
   * activation, a password reset) would reach no one, so it is refused instead. Absent (test
   * doubles) means true. Checked by assertDeliversLinks.
   */
  readonly deliversLinks?: boolean
  /** Never throws: a delivery problem is a 'failed' status, a row and a log line. */
  send(message: MailMessage): Promise<MailStatus>
}

interface MailerLog {
  error: (obj: object, msg: string) => void
  warn?: (obj: object, msg: string) => void
}

export const MAIL_NOT_CONFIGURED_MESSAGE =
  'Email is not configured on this server, so invitation and activation links cannot be sent. Ask the platform operator to set SMTP_URL (the mail server), then try again.'

/** Tests only: every message as it was handed to the mailer, secrets included. */
export type MailCapture = (message: MailMessage) => void

/** Connect, greeting and idle limits, so a dead or silent SMTP server cannot hold a request. */
export const SMTP_TIMEOUT_MS = 10_000

/** The longest error text kept in a row or a log line. */
const MAX_ERROR_LENGTH = 300

/**
 * The platform's one way to send email. Without smtpUrl every message goes to the sandbox
 * outbox (email_outbox, read by super admins) with its secrets masked (mask-secrets.ts): no
 * outbox row holds a live link. In development the whole message is also a file in
 * devOutboxDir, private to the server's user. With `requireDelivery` (production) an email that
 * carries a secret is refused instead ('failed', masked) and `assertDeliversLinks` throws, so
 * invitations and activations answer a clear 409. With smtpUrl (smtp:// or
 * smtps://user:pass@host:port) mail is sent through that server, the operator's own (trusted,
 * not the outbound-host guard's), and only its envelope and status are recorded.
 */
export function createMailer(options: {
  db: AppDb
  smtpUrl?: string | undefined
  from: string
  devOutboxDir?: string | undefined
  /** Production: without smtpUrl, emails that carry a secret are refused. */
  requireDelivery?: boolean | undefined
  /** Tests only (never set by the server): each message as handed over, secrets included. */
  capture?: MailCapture | undefined
  log?: MailerLog
}): Mailer {
  const mailer = options.smtpUrl
    ? smtpMailer({ ...options, smtpUrl: options.smtpUrl })
    : sandboxMailer(options)
  const { capture } = options
  if (!capture) return mailer
  return {
    ...mailer,
    send(message) {
      capture(message)
      return mailer.send(message)
    },
  }
}

/**
 * Throws 409 (MAIL_NOT_CONFIGURED_MESSAGE) when the mailer cannot deliver a link that gives
 * access: called before creating what such a link opens (an invitation, a trial account), so
 * nothing is left half done.
 */
export function assertDeliversLinks(mailer: Pick<Mailer, 'deliversLinks'>): void {
  if (mailer.deliversLinks === false) throw new AppError('CONFLICT', MAIL_NOT_CONFIGURED_MESSAGE)
}

/** The message as the outbox keeps it: every secret masked. */
function masked(message: MailMessage) {
  const mask = (text: string) => maskSecrets(text, message.secrets)
  const text = mask(message.text)
  const html = message.html === undefined ? null : mask(message.html)
  const subject = mask(message.subject)
  const carriesSecret =
    text !== message.text || subject !== message.subject || (html ?? '') !== (message.html ?? '')
  return { text, html, subject, carriesSecret }
}

type Row = typeof emailOutbox.$inferInsert

async function record(db: AppDb, row: Row): Promise<{ id: string; createdAt: Date }> {
  const [saved] = await withPlatform(db, (tx) =>
    tx
      .insert(emailOutbox)
      .values(row)
      .returning({ id: emailOutbox.id, createdAt: emailOutbox.createdAt }),
  )
  if (!saved) throw new Error('email_outbox row was not saved')
  return saved
}

/** The domain of an address, the only part of a recipient that logs may show. */
function domainOf(address: string): string {
  const at = address.lastIndexOf('@')
  return at >= 0 ? address.slice(at + 1).toLowerCase() : ''
}

/**
 * A database or file-system error, short. Drizzle's own message repeats the query and its
 * parameters (the email body, a verification link): only the driver's cause is kept.
 */
function shortError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  const text = cause instanceof Error ? cause.message : String(cause)
  return (text.split(/\n\s*params:/)[0] ?? '').slice(0, MAX_ERROR_LENGTH)
}

function sandboxMailer(options: {
  db: AppDb
  devOutboxDir?: string | undefined
  requireDelivery?: boolean | undefined
  log?: MailerLog | undefined
}): Mailer {
  const { db, devOutboxDir, log } = options
  const deliversLinks = !options.requireDelivery
  if (!deliversLinks) {
    log?.warn?.(
      { mail: 'sandbox' },
      'Email is not configured (no SMTP_URL): invitations, trial activations and password resets are refused until it is set',
    )
  }
  return {
    driver: 'sandbox',
    deliversLinks,
    async send(message) {
      const kept = masked(message)
      const refused = kept.carriesSecret && !deliversLinks
      let saved: { id: string; createdAt: Date }
      try {
        saved = await record(db, {
          purpose: message.purpose,
          toAddress: message.to,
          subject: kept.subject,
          textBody: kept.text,
          htmlBody: kept.html,
          driver: 'sandbox',
          status: refused ? 'failed' : 'sandbox',
          error: refused ? 'Not sent: email is not configured on this server (SMTP_URL)' : null,
        })
      } catch (error) {
        log?.error(
          {
            purpose: message.purpose,
            recipientDomain: domainOf(message.to),
            error: shortError(error),
          },
          'Email could not be stored in the sandbox outbox',
        )
        return 'failed'
      }
      if (refused) {
        log?.error(
          { purpose: message.purpose, recipientDomain: domainOf(message.to) },
          'Email with a link was not sent: email is not configured (SMTP_URL)',
        )
        return 'failed'
      }
      // The development file keeps the whole message: it is private to the server's user.
      if (devOutboxDir) {
        try {
          await writeDevFile(devOutboxDir, message, saved)
        } catch (error) {
          log?.error(
            { purpose: message.purpose, error: shortError(error) },
            'Sandbox email could not be written to the development outbox folder',
          )
        }
      }
      return 'sandbox'
    },
  }
}

/** One file per message, private to the server's user, named so the newest sorts last. */
async function writeDevFile(
  dir: string,
  message: MailMessage,
  saved: { id: string; createdAt: Date },
): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const stamp = saved.createdAt.toISOString().replaceAll(':', '-')
  const purpose = message.purpose.replace(/[^a-zA-Z0-9_-]/g, '_')
  const headers = [
    `To: ${oneLine(message.to)}`,
    `Subject: ${oneLine(message.subject)}`,
    `Date: ${saved.createdAt.toUTCString()}`,
  ]
  await writeFile(
    join(dir, `${stamp}-${purpose}-${saved.id}.txt`),
    `${headers.join('\n')}\n\n${message.text}\n`,
    { mode: 0o600, flag: 'wx' },
  )
}

function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ')
}

/** Everything in the SMTP URL that must never reach a row or a log: user, password, URL. */
function secretsOf(smtpUrl: string): string[] {
  const secrets = [smtpUrl]
  try {
    const url = new URL(smtpUrl)
    if (url.password) secrets.push(url.password, safeDecode(url.password))
    // A very short user name would blank out ordinary words; it is not a secret anyway.
    if (url.username.length >= 3) secrets.push(url.username, safeDecode(url.username))
  } catch {
    // An unparsable URL: nodemailer reports it; the URL itself is still scrubbed.
  }
  // Longest first, so a password containing the user name is removed whole.
  return [...new Set(secrets)].filter(Boolean).sort((a, b) => b.length - a.length)
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

function smtpMailer(options: {
  db: AppDb
  smtpUrl: string
  from: string
  log?: MailerLog | undefined
}): Mailer {
  const { db, from, log } = options
  const secrets = secretsOf(options.smtpUrl)
  const scrub = (text: string, recipient: string) => {
    let clean = text
    for (const secret of secrets) clean = clean.split(secret).join('[redacted]')
    // Any other URL with credentials (say, from a proxy setting) loses them too.
    clean = clean.replace(/(\w+:\/\/)[^/\s@]*@/g, '$1[redacted]@')
    if (recipient) clean = clean.split(recipient).join('<recipient>')
    return clean.slice(0, MAX_ERROR_LENGTH)
  }
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    dnsTimeout: SMTP_TIMEOUT_MS,
  })

  return {
    driver: 'smtp',
    deliversLinks: true,
    async send(message) {
      let status: MailStatus = 'sent'
      let error: string | null = null
      try {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
        })
      } catch (cause) {
        status = 'failed'
        const code = (cause as { code?: unknown }).code
        const text = cause instanceof Error ? cause.message : String(cause)
        error = scrub(typeof code === 'string' ? `${code}: ${text}` : text, message.to)
        log?.error(
          { purpose: message.purpose, recipientDomain: domainOf(message.to), error },
          'Email could not be sent',
        )
      }
      try {
        await record(db, {
          purpose: message.purpose,
          toAddress: message.to,
          subject: masked(message).subject,
          textBody: null,
          htmlBody: null,
          driver: 'smtp',
          status,
          error,
          sentAt: status === 'sent' ? new Date() : null,
        })
      } catch (cause) {
        log?.error(
          {
            purpose: message.purpose,
            recipientDomain: domainOf(message.to),
            error: scrub(shortError(cause), message.to),
          },
          'Email status could not be recorded in the outbox',
        )
      }
      return status
    },
  }
}
