import type { AppDb } from '../../src/server/db/client'
import type { MailCapture, MailMessage } from '../../src/server/integrations/email/mailer'

/**
 * The emails a test app's mailer was handed, whole (secrets included), through the test-only
 * capture hook (AppOptions.mailCapture): the outbox keeps links masked, so tests read links
 * here. Keyed by the app's database, which every test helper already has.
 */
const captured = new WeakMap<AppDb, MailMessage[]>()

/** The capture hook for a test app on `db` (createTestApp installs it). */
export function captureMailFor(db: AppDb): MailCapture {
  const list: MailMessage[] = []
  captured.set(db, list)
  return (message) => {
    list.push(message)
  }
}

/** Every email handed to the mailer of the app on `db`, oldest first. */
export function sentMail(db: AppDb): MailMessage[] {
  const list = captured.get(db)
  if (!list) throw new Error('this app captures no mail: build it with createTestApp')
  return list
}

/** The newest email to `to` (with this purpose), or undefined. */
export function lastMailTo(db: AppDb, to: string, purpose?: string): MailMessage | undefined {
  return sentMail(db)
    .filter((m) => m.to === to && (purpose === undefined || m.purpose === purpose))
    .at(-1)
}

/** The first http(s) link of the newest email to `to` (with this purpose); throws without one. */
export function linkInMailTo(db: AppDb, to: string, purpose?: string): string {
  const mail = lastMailTo(db, to, purpose)
  const link = /https?:\/\/\S+/.exec(mail?.text ?? '')?.[0]
  if (!link) throw new Error(`no email with a link to ${to}${purpose ? ` (${purpose})` : ''}`)
  return link
}
