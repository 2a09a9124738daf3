import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { AppDb } from '../../db/client'
import { emailOutbox } from '../../db/schema/security'
import { withPlatform } from '../../db/tenant'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html?: string
  /** What the email is for ('verify-email', ...): kept in the outbox, used in file names. */
  purpose: string
}

export type MailStatus = 'sandbox' | 'sent' | 'failed'

export interface Mailer {
  readonly driver: 'sandbox' | 'smtp'
  /** Never throws: a delivery problem is a 'failed' status, a row and a log line. */
  send(message: MailMessage): Promise<MailStatus>
}

interface MailerLog {
  error: (obj: object, msg: string) => void
}

/** Connect, greeting and idle limits, so a dead or silent SMTP server cannot hold a request. */
export const SMTP_TIMEOUT_MS = 10_000

/** The longest error text kept in a row or a log line. */
const MAX_ERROR_LENGTH = 300

/**
 * The platform's one way to send email. Without smtpUrl every message goes to the sandbox
 * outbox (email_outbox, read by super admins; in development also a file per message in
 * devOutboxDir). With smtpUrl (smtp:// or smtps://user:pass@host:port) it is sent through
 * that server and only its envelope and status are recorded: real mail content is not kept.
 */
export function createMailer(options: {
  db: AppDb
  smtpUrl?: string | undefined
  from: string
  devOutboxDir?: string | undefined
  log?: MailerLog
}): Mailer {
  if (options.smtpUrl) return smtpMailer({ ...options, smtpUrl: options.smtpUrl })
  return sandboxMailer(options)
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
  log?: MailerLog | undefined
}): Mailer {
  const { db, devOutboxDir, log } = options
  return {
    driver: 'sandbox',
    async send(message) {
      let saved: { id: string; createdAt: Date }
      try {
        saved = await record(db, {
          purpose: message.purpose,
          toAddress: message.to,
          subject: message.subject,
          textBody: message.text,
          htmlBody: message.html ?? null,
          driver: 'sandbox',
          status: 'sandbox',
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
          subject: message.subject,
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
