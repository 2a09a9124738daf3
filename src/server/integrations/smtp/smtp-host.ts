import type { SaveMessagingSettingsInput } from '../../../shared/schemas/messaging-settings'
import { AppError } from '../../http/app-error'
import type { ApiIssue } from '../../../shared/api-error'
import { type CheckedHost, checkOutboundHost, OutboundRefused } from '../../net/outbound-host'

/**
 * A hospital's SMTP server through the outbound-host guard (net/outbound-host.ts): mail ports
 * only, a public address (unless SMTP_ALLOW_PRIVATE_HOSTS), checked on save and before every
 * connection. The platform's own SMTP_URL is the operator's and is not checked here.
 */

/** SMTP (25), implicit TLS (465), submission with STARTTLS (587) and the common alternative (2525). */
export const SMTP_PORTS = [25, 465, 587, 2525] as const

/**
 * The one answer to every failure to reach the server (refused address or port, unknown name,
 * refused connection, timeout, TLS): it says nothing of what is behind the host.
 */
export const SMTP_UNREACHABLE_MESSAGE =
  'Could not connect to the mail server with these settings. Check the host, port and credentials.'

/** The one answer on save to a host the guard refuses (private, unknown, malformed alike). */
export const SMTP_HOST_REFUSED_MESSAGE =
  'This mail server cannot be used. Enter the SMTP host name your email provider gives, e.g. smtp.gmail.com.'

export const SMTP_PORT_MESSAGE = `Use a mail port: ${SMTP_PORTS.slice(0, -1).join(', ')} or ${SMTP_PORTS.at(-1)}.`

/** The host to connect to for one send: checked now, pinned to one address. */
export function checkSmtpHost(host: string, port: number): Promise<CheckedHost> {
  return checkOutboundHost(host, port, { ports: SMTP_PORTS })
}

const isMailPort = (port: number) => (SMTP_PORTS as readonly number[]).includes(port)

type EmailInput = SaveMessagingSettingsInput['email']

/**
 * PUT /api/settings/messaging: an SMTP host or port the guard refuses is a 400 with a field
 * message, before anything is stored. Only what the request changes is checked (a host left out
 * was checked when it was saved, and is checked again before every connection).
 */
export async function assertSmtpSettingsAllowed(email: EmailInput): Promise<void> {
  if (email?.provider !== 'smtp') return
  const { host, port } = email.settings
  const issues: ApiIssue[] = []
  if (port !== undefined && !isMailPort(port)) {
    issues.push({ path: 'email.settings.port', message: SMTP_PORT_MESSAGE })
  }
  if (host) {
    try {
      // The port is judged above; the address is judged as for a mail port.
      await checkSmtpHost(host, port !== undefined && isMailPort(port) ? port : SMTP_PORTS[0])
    } catch (error) {
      if (!(error instanceof OutboundRefused)) throw error
      issues.push({ path: 'email.settings.host', message: SMTP_HOST_REFUSED_MESSAGE })
    }
  }
  const [first] = issues
  if (first) throw new AppError('VALIDATION', first.message, issues)
}
