import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** One message as the SMTP server received it. */
export interface ReceivedMail {
  /** Envelope sender (MAIL FROM) and recipients (RCPT TO). */
  mailFrom: string | null
  rcptTo: string[]
  /** The user the client authenticated as, if any. */
  user: string | null
  /** The message exactly as sent over DATA (headers, blank line, body). */
  raw: string
  /** Header names lower-cased; encoded words (=?UTF-8?B?...?=) decoded. */
  headers: Record<string, string>
  subject: string
  from: string
  /** The text/plain body, transfer encoding undone. */
  text: string
}

export interface FakeSmtp {
  /** smtp://user:pass@127.0.0.1:<port> */
  url: string
  port: number
  /** The address it listens on (127.0.0.1 by default). */
  address: string
  messages: ReceivedMail[]
  close: () => Promise<void>
}

/**
 * A local SMTP server for tests, on 127.0.0.1 and a free port (or where asked), without TLS. With `auth` it
 * accepts only that user and password (and its URL carries them); otherwise any login.
 */
export async function startFakeSmtp(
  options: {
    auth?: { user: string; pass: string }
    /** Where to listen: 127.0.0.1 and a free port by default. */
    host?: string
    port?: number
  } = {},
): Promise<FakeSmtp> {
  const credentials = options.auth ?? { user: 'user', pass: 'pass' }
  const messages: ReceivedMail[] = []
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok =
        !options.auth ||
        (auth.username === options.auth.user && auth.password === options.auth.pass)
      if (!ok) {
        callback(new Error('Invalid username or password'))
        return
      }
      callback(null, { user: auth.username })
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', callback)
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const { headers, text } = parseMessage(raw)
        const mailFrom = session.envelope.mailFrom
        messages.push({
          mailFrom: mailFrom ? mailFrom.address : null,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : null,
          raw,
          headers,
          subject: headers.subject ?? '',
          from: headers.from ?? '',
          text,
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const { port, address } = server.server.address() as AddressInfo
  const auth = `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}`
  return {
    url: `smtp://${auth}@${address}:${port}`,
    port,
    address,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Splits a raw message into unfolded, decoded headers and its body. */
function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/)
  const head = end < 0 ? raw : raw.slice(0, end)
  const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '')
  const headers: Record<string, string> = {}
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim())
  }
  return { headers, body }
}

/** RFC 2047 encoded words, as nodemailer writes non-ASCII subjects and names. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
      (_m, _charset: string, enc: string, data: string) =>
        enc.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    )
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = []
  const text = value.replace(/=\r?\n/g, '')
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3)
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else bytes.push(...Buffer.from(text[i] ?? '', 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body)
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    default:
      return body
  }
}

/** The text/plain part: the message itself, or the first such part of a multipart one. */
function parseMessage(raw: string): { headers: Record<string, string>; text: string } {
  const { headers, body } = splitHeaders(raw)
  return { headers, text: textPart(headers, body).replace(/\r\n/g, '\n').replace(/\n$/, '') }
}

function textPart(headers: Record<string, string>, body: string, depth = 0): string {
  const type = headers['content-type'] ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (/^multipart\//i.test(type) && boundary && depth < 3) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break
      const parsed = splitHeaders(part.replace(/^\r?\n/, ''))
      const text = textPart(parsed.headers, parsed.body.replace(/\r?\n$/, ''), depth + 1)
      if (text) return text
    }
    return ''
  }
  if (!/^text\/plain/i.test(type)) return ''
  return decodeBody(body, headers['content-transfer-encoding'])
}

/**
 * The fake on a mail port (2525, which the outbound-host guard allows) of a random loopback
 * address 127.x.y.z, so test files running at once do not collide.
 */
export async function startFakeSmtpOnMailPort(
  options: { auth?: { user: string; pass: string } } = {},
): Promise<FakeSmtp> {
  for (let attempt = 0; ; attempt++) {
    const byte = () => 1 + Math.floor(Math.random() * 254)
    try {
      return await startFakeSmtp({
        ...options,
        host: `127.${byte()}.${byte()}.${byte()}`,
        port: 2525,
      })
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EADDRINUSE' || attempt > 20) throw error
    }
  }
}
