import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emailOutbox } from '../../src/server/db/schema/security'
import {
  assertDeliversLinks,
  createMailer,
  MAIL_NOT_CONFIGURED_MESSAGE,
  type MailMessage,
} from '../../src/server/integrations/email/mailer'
import { outboxEntry } from '../../src/shared/schemas/outbox'
import { type FakeSmtp, startFakeSmtp } from '../support/fakes/smtp'
import { expectError } from '../support/http'
import { login } from '../support/login'
import { createTestApp, demoEmail, type TestApp } from '../support/test-app'
import { loginSuperAdmin } from '../support/two-factor'

const FROM = 'Arogya CRM <no-reply@arogya.test>'
const SMTP_USER = 'mailer@arogya.test'
const SMTP_PASS = 'S3cret:pass/word@x'

let t: TestApp
let tmp: string
let smtp: FakeSmtp
beforeAll(async () => {
  t = await createTestApp()
  tmp = await mkdtemp(join(tmpdir(), 'arogya-mail-'))
  smtp = await startFakeSmtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } })
})
afterAll(async () => {
  await smtp?.close()
  if (tmp) await rm(tmp, { recursive: true, force: true })
  await t?.close()
})

function capturedLog() {
  const lines: { obj: object; msg: string }[] = []
  return { lines, log: { error: (obj: object, msg: string) => lines.push({ obj, msg }) } }
}

const rowsOf = (purpose: string) =>
  t.db.select().from(emailOutbox).where(eq(emailOutbox.purpose, purpose))

function smtpUrl(port: number, pass = SMTP_PASS): string {
  return `smtp://${encodeURIComponent(SMTP_USER)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`
}

/** A port on which nothing listens. */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const msg = (purpose: string, extra: Partial<MailMessage> = {}): MailMessage => ({
  to: 'x@y.example',
  subject: 'S',
  text: 'T',
  purpose,
  ...extra,
})

const link = `http://localhost/api/auth/verify-email?token=${'x'.repeat(120)}&callbackURL=%2Fapp`

describe('sandbox driver', () => {
  it('stores the message with its link masked and writes it whole to a private dev file', async () => {
    const dir = join(tmp, 'outbox')
    const mailer = createMailer({ db: t.db, from: FROM, devOutboxDir: dir })
    expect(mailer.driver).toBe('sandbox')
    const message: MailMessage = {
      to: 'owner@rao-eye.example',
      subject: 'Activate your Arogya CRM trial',
      text: `Welcome.\n\nOpen this link:\n${link}\n`,
      html: '<p>Welcome.</p>',
      purpose: 'sandbox-test',
    }
    expect(await mailer.send(message)).toBe('sandbox')

    const [row, ...more] = await rowsOf('sandbox-test')
    expect(more).toHaveLength(0)
    expect(row).toMatchObject({
      toAddress: message.to,
      subject: message.subject,
      // Issue 39: no outbox row holds a live link.
      textBody: `Welcome.\n\nOpen this link:\n${link.replace('x'.repeat(120), '••••xxxx')}\n`,
      htmlBody: message.html,
      driver: 'sandbox',
      status: 'sandbox',
      error: null,
      sentAt: null,
    })

    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    const files = await readdir(dir)
    expect(files).toHaveLength(1)
    const name = files[0] ?? ''
    expect(name).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-sandbox-test-[0-9a-f-]{36}\.txt$/)
    expect(name).toContain(row?.id)
    expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600)
    const content = await readFile(join(dir, name), 'utf8')
    expect(content).toMatch(
      /^To: owner@rao-eye\.example\nSubject: Activate your Arogya CRM trial\nDate: .+ GMT\n\n/,
    )
    expect(content).toContain(message.text)
    expect(content).toContain(link)
  })

  it('in production, refuses an email with a link (kept failed, masked) and keeps one without', async () => {
    const { lines, log } = capturedLog()
    const mailer = createMailer({ db: t.db, from: FROM, requireDelivery: true, log })
    expect(mailer.deliversLinks).toBe(false)
    expect(() => assertDeliversLinks(mailer)).toThrow(MAIL_NOT_CONFIGURED_MESSAGE)
    expect(await mailer.send(msg('prod-link', { text: `Open:\n${link}` }))).toBe('failed')
    expect(await rowsOf('prod-link')).toMatchObject([
      {
        status: 'failed',
        textBody: `Open:\n${link.replace('x'.repeat(120), '••••xxxx')}`,
        error: 'Not sent: email is not configured on this server (SMTP_URL)',
      },
    ])
    expect(JSON.stringify(lines)).not.toContain('x'.repeat(16))
    expect(await mailer.send(msg('prod-plain', { text: 'Your ticket is resolved.' }))).toBe(
      'sandbox',
    )
    expect(await rowsOf('prod-plain')).toMatchObject([
      { status: 'sandbox', textBody: 'Your ticket is resolved.' },
    ])
    // Development (the default) and an SMTP server deliver links.
    expect(createMailer({ db: t.db, from: FROM }).deliversLinks).toBe(true)
    expect(createMailer({ db: t.db, from: FROM, smtpUrl: smtp.url }).deliversLinks).toBe(true)
  })

  it('masks declared secrets wherever they are, and hands the whole message to a test capture', async () => {
    const seen: MailMessage[] = []
    const mailer = createMailer({ db: t.db, from: FROM, capture: (m) => seen.push(m) })
    const secret = 'reset-9f8e7d6c5b4a'
    const message = msg('declared', {
      subject: `Code ${secret}`,
      text: `Your link: https://crm.example/reset/${secret} (code ${secret})`,
      secrets: [secret],
    })
    expect(await mailer.send(message)).toBe('sandbox')
    expect(seen).toEqual([message])
    const [row] = await rowsOf('declared')
    expect(row?.subject).toBe('Code ••••5b4a')
    expect(row?.textBody).toBe('Your link: https://crm.example/reset/••••5b4a (code ••••5b4a)')
  })

  it('writes no file without a dev outbox folder', async () => {
    const mailer = createMailer({ db: t.db, from: FROM })
    expect(await mailer.send(msg('no-file'))).toBe('sandbox')
    expect(await rowsOf('no-file')).toHaveLength(1)
  })
})

describe('SMTP driver', () => {
  it('delivers through the server with the real envelope and headers; keeps no bodies', async () => {
    const { lines, log } = capturedLog()
    const mailer = createMailer({ db: t.db, from: FROM, smtpUrl: smtp.url, log })
    expect(mailer.driver).toBe('smtp')
    const text = `Welcome to Arogya CRM.\n\nOpen this link to activate your account:\n${link}`
    const before = smtp.messages.length
    const subject = 'Activate your Arogya CRM trial'
    const to = 'Doctor@Clinic.example'
    expect(await mailer.send(msg('smtp-test', { to, subject, text }))).toBe('sent')
    expect(lines).toEqual([])

    expect(smtp.messages).toHaveLength(before + 1)
    const mail = smtp.messages.at(-1)
    expect(mail).toMatchObject({
      mailFrom: 'no-reply@arogya.test',
      // nodemailer lower-cases the domain of envelope addresses
      rcptTo: ['Doctor@clinic.example'],
      user: SMTP_USER,
      subject,
      from: FROM,
      text,
    })
    expect(mail?.headers.to).toBe('Doctor@clinic.example')
    expect(mail?.headers['message-id']).toMatch(/^<.+@.+>$/)

    const [row] = await rowsOf('smtp-test')
    expect(row).toMatchObject({ toAddress: to, subject, driver: 'smtp', status: 'sent' })
    expect(row).toMatchObject({ textBody: null, htmlBody: null, error: null })
    expect(row?.sentAt).toBeInstanceOf(Date)
  })

  it('sends HTML beside the text and encodes a non-ASCII subject', async () => {
    const mailer = createMailer({ db: t.db, from: FROM, smtpUrl: smtp.url })
    const subject = 'Namaste — आरोग्य CRM'
    const html = '<p>HTML part</p>'
    expect(await mailer.send(msg('smtp-html', { subject, text: 'Plain text part', html }))).toBe(
      'sent',
    )
    const mail = smtp.messages.at(-1)
    expect(mail?.subject).toBe(subject)
    expect(mail?.text).toBe('Plain text part')
    expect(mail?.headers['content-type']).toMatch(/^multipart\/alternative/)
    expect(mail?.raw).toContain('<p>HTML part</p>')
    const [row] = await rowsOf('smtp-html')
    expect(row).toMatchObject({ status: 'sent', textBody: null, htmlBody: null })
  })

  it('records a refused login as failed, without the password', async () => {
    const { lines, log } = capturedLog()
    const wrong = 'Wrong-Pass-123'
    const mailer = createMailer({ db: t.db, from: FROM, smtpUrl: smtpUrl(smtp.port, wrong), log })
    const before = smtp.messages.length
    expect(await mailer.send(msg('smtp-auth'))).toBe('failed')
    expect(smtp.messages).toHaveLength(before)
    const [row] = await rowsOf('smtp-auth')
    expect(row).toMatchObject({ driver: 'smtp', status: 'failed', sentAt: null, textBody: null })
    expect(row?.error).toMatch(/EAUTH/)
    const logged = JSON.stringify(lines)
    for (const secret of [wrong, encodeURIComponent(wrong), SMTP_USER]) {
      expect(row?.error).not.toContain(secret)
      expect(logged).not.toContain(secret)
    }
  })

  it('records a dead server as failed, never throws, and logs no credentials or address', async () => {
    const { lines, log } = capturedLog()
    const url = smtpUrl(await deadPort())
    const mailer = createMailer({ db: t.db, from: FROM, smtpUrl: url, log })
    const to = 'patient.name@hospital.example'
    expect(await mailer.send(msg('smtp-dead', { to, text: `Secret link ${link}` }))).toBe('failed')

    const [row] = await rowsOf('smtp-dead')
    expect(row).toMatchObject({ toAddress: to, driver: 'smtp', status: 'failed', sentAt: null })
    expect(row).toMatchObject({ textBody: null, htmlBody: null })
    expect(row?.error).toMatch(/ECONNECTION|ECONNREFUSED/)

    expect(lines).toHaveLength(1)
    expect(lines[0]?.obj).toMatchObject({
      purpose: 'smtp-dead',
      recipientDomain: 'hospital.example',
    })
    const logged = JSON.stringify(lines)
    for (const secret of [SMTP_PASS, encodeURIComponent(SMTP_PASS), url, 'patient.name', link]) {
      expect(row?.error).not.toContain(secret)
      expect(logged).not.toContain(secret)
    }
  })
})

describe('GET /api/admin/outbox', () => {
  const list = (cookie?: string, query = '') =>
    t.app.inject({
      method: 'GET',
      url: `/api/admin/outbox${query}`,
      headers: cookie ? { cookie } : {},
    })

  it('shows super admins the newest emails, sandbox text included', async () => {
    const mailer = createMailer({ db: t.db, from: FROM })
    await mailer.send(msg('api', { to: 'new@clinic.example', subject: 'Newest', text: 'Hello' }))
    const cookie = await loginSuperAdmin(t.app)

    const res = await list(cookie)
    expect(res.statusCode, res.body).toBe(200)
    const entries = z.array(outboxEntry.strict()).parse(res.json())
    const [newest] = entries
    expect(newest).toMatchObject({ purpose: 'api', to: 'new@clinic.example', subject: 'Newest' })
    expect(newest).toMatchObject({ text: 'Hello', driver: 'sandbox', status: 'sandbox' })
    expect(newest).toMatchObject({ error: null, sentAt: null })
    expect(new Date(newest?.createdAt ?? '').toISOString()).toBe(newest?.createdAt)
    const times = entries.map((e) => e.createdAt)
    expect(times).toEqual([...times].sort().reverse())
    const sent = entries.find((e) => e.purpose === 'smtp-test')
    expect(sent).toMatchObject({ driver: 'smtp', status: 'sent', text: null })
    expect(sent?.sentAt).toMatch(/Z$/)
    expect(JSON.stringify(entries)).not.toContain(SMTP_PASS)

    const one = await list(cookie, '?limit=1')
    expect(one.statusCode).toBe(200)
    expect(one.json()).toEqual([newest])
  })

  it('rejects a bad limit or an unknown parameter', async () => {
    const cookie = await loginSuperAdmin(t.app)
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?limit=1.5', '?page=2']) {
      expectError(await list(cookie, query), 400, 'VALIDATION')
    }
  })

  it('is closed to hospital admins (403) and to signed-out visitors (401)', async () => {
    expectError(await list(await login(t.app, demoEmail('admin'))), 403, 'FORBIDDEN')
    expectError(await list(), 401, 'UNAUTHENTICATED')
  })
})
