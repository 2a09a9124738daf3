import { createServer, type Server, type Socket } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeSmtpOnMailPort, type FakeSmtp } from '../../../../tests/support/fakes/smtp'
import { setOutboundPolicy } from '../../net/outbound-host'
import type { OutboundMessage } from '../messaging/provider'
import { SMTP_UNREACHABLE_MESSAGE } from './smtp-host'
import { SMTP_UNREACHABLE_CODE, smtpProvider, smtpTransportOptions } from './smtp-provider'

let smtp: FakeSmtp
const signal = () => new AbortController().signal
/** The hospital's settings: by default the fake relay (a loopback address, port 2525). */
const settings = (over: Partial<Parameters<typeof smtpProvider>[0]> = {}) => ({
  host: smtp.address,
  port: smtp.port,
  secure: false,
  user: 'clinic',
  password: 'secret',
  fromEmail: 'care@sanjeevani.in',
  fromName: 'Sanjeevani Clinic',
  ...over,
})
const mail = (over: Partial<OutboundMessage> = {}): OutboundMessage => ({
  channel: 'email',
  to: 'asha@example.in',
  idempotencyKey: 'comm-5',
  subject: 'Your appointment',
  text: 'See you on Friday.',
  ...over,
})
const UNREACHABLE = {
  ok: false,
  kind: 'temporary',
  code: SMTP_UNREACHABLE_CODE,
  reason: SMTP_UNREACHABLE_MESSAGE,
}

/** A random loopback address (127.x.y.z), where port 2525 is free for one test. */
const loopback = () => {
  const byte = () => 1 + Math.floor(Math.random() * 254)
  return `127.${byte()}.${byte()}.${byte()}`
}

async function listen(server: Server | SMTPServer, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(2525, host, () => resolve())
  })
}

/** An SMTP server on a mail port that refuses every recipient with `code`. */
async function refusingServer(code: number): Promise<{ host: string; close: () => Promise<void> }> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error('Refused by the test'), { responseCode: code }))
    },
  })
  const host = loopback()
  await listen(server, host)
  return { host, close: () => new Promise<void>((r) => server.close(() => r())) }
}

beforeAll(async () => {
  smtp = await startFakeSmtpOnMailPort({ auth: { user: 'clinic', pass: 'secret' } })
})
afterAll(() => smtp.close())

/** An on-premise install (SMTP_ALLOW_PRIVATE_HOSTS=true) reaches its own relay, plaintext. */
describe('SMTP adapter against a local SMTP server (private hosts allowed)', () => {
  let restore = () => {}
  beforeEach(() => {
    restore = setOutboundPolicy({ allowPrivateHosts: true, minRefusalMs: 0 })
  })
  afterEach(() => restore())

  it('sends with the key as Message-ID, authenticated, from the hospital', async () => {
    const r = await smtpProvider(settings()).send(mail(), signal())
    expect(r).toEqual({
      ok: true,
      status: 'sent',
      providerMessageId: '<comm-5@arogya.local>',
      // Nothing the server said (its banner, its reply) is passed on.
      detail: 'The SMTP server accepted the email.',
    })
    const got = smtp.messages.at(-1)
    expect(got?.headers['message-id']).toBe('<comm-5@arogya.local>')
    expect(got?.user).toBe('clinic')
    expect(got?.rcptTo).toEqual(['asha@example.in'])
    expect(got?.subject).toBe('Your appointment')
    expect(got?.text).toBe('See you on Friday.')
    expect(got?.from).toContain('care@sanjeevani.in')
  })

  it('connects to the address the guard checked, not to the name again', async () => {
    // The name exists only in the guard's resolver: nodemailer, given the address, never asks.
    restore()
    restore = setOutboundPolicy({
      allowPrivateHosts: true,
      minRefusalMs: 0,
      resolve: async () => [smtp.address],
    })
    const before = smtp.messages.length
    const r = await smtpProvider(settings({ host: 'relay.clinic.invalid' })).send(mail(), signal())
    expect(r).toMatchObject({ ok: true })
    expect(smtp.messages.length).toBe(before + 1)
  })

  it('a wrong password is auth, told apart', async () => {
    const r = await smtpProvider(settings({ password: 'wrong' })).send(mail(), signal())
    expect(r).toEqual({
      ok: false,
      kind: 'auth',
      code: 'SMTP_AUTH',
      reason: 'The mail server refused the user name or password: check Settings → Integrations.',
    })
  })

  it('a refused connection is the one unreachable answer', async () => {
    expect(await smtpProvider(settings({ host: loopback() })).send(mail(), signal())).toEqual(
      UNREACHABLE,
    )
  })

  it('a recipient refused with 550 is invalid; with 450 temporary; the reply text is not kept', async () => {
    for (const [code, kind] of [
      [550, 'invalid_number'],
      [450, 'temporary'],
    ] as const) {
      const server = await refusingServer(code)
      const r = await smtpProvider(settings({ host: server.host, user: '' })).send(mail(), signal())
      await server.close()
      expect(r).toMatchObject({ ok: false, kind, code: `SMTP ${code}` })
      expect(JSON.stringify(r)).not.toContain('Refused by the test')
    }
  })

  it('a server that never greets is aborted by the signal', async () => {
    const sockets = new Set<Socket>()
    const silent: Server = createServer((s) => sockets.add(s))
    const host = loopback()
    await listen(silent, host)
    const started = Date.now()
    await expect(
      smtpProvider(settings({ host })).send(mail(), AbortSignal.timeout(300)),
    ).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(5_000)
    for (const s of sockets) s.destroy()
    await new Promise<void>((r) => silent.close(() => r()))
  })

  it('lookup is unknown', async () => {
    expect(
      await smtpProvider(settings()).lookup(
        { idempotencyKey: 'k', to: 'a@b.in', since: new Date() },
        signal(),
      ),
    ).toEqual({ found: 'unknown' })
  })
})

describe('SMTP adapter behind the outbound-host guard (the default)', () => {
  let restore = () => {}
  afterEach(() => restore())

  it('never reaches a relay on loopback, private, link-local or mapped addresses: one answer for all', async () => {
    restore = setOutboundPolicy({ allowPrivateHosts: false, minRefusalMs: 0 })
    const before = smtp.messages.length
    for (const host of [
      smtp.address,
      '127.0.0.1',
      'localhost',
      '10.0.0.1',
      '169.254.169.254',
      '::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(await smtpProvider(settings({ host })).send(mail(), signal()), host).toEqual(
        UNREACHABLE,
      )
    }
    expect(smtp.messages.length).toBe(before)
  })

  it('a port that is not a mail port is refused alike, even where private hosts are allowed', async () => {
    restore = setOutboundPolicy({ allowPrivateHosts: true, minRefusalMs: 0 })
    for (const port of [22, 6379, 5432, 8080]) {
      expect(await smtpProvider(settings({ port })).send(mail(), signal()), String(port)).toEqual(
        UNREACHABLE,
      )
    }
  })

  it('refusals and failed connections answer no sooner than the minimum', async () => {
    restore = setOutboundPolicy({ allowPrivateHosts: false, minRefusalMs: 300 })
    for (const host of ['127.0.0.1', '10.0.0.1', 'no-such-host.invalid']) {
      const started = Date.now()
      expect(await smtpProvider(settings({ host })).send(mail(), signal())).toEqual(UNREACHABLE)
      expect(Date.now() - started, host).toBeGreaterThanOrEqual(295)
    }
    restore()
    // A refused connection on an allowed address is padded the same.
    restore = setOutboundPolicy({ allowPrivateHosts: true, minRefusalMs: 300 })
    const started = Date.now()
    expect(await smtpProvider(settings({ host: loopback() })).send(mail(), signal())).toEqual(
      UNREACHABLE,
    )
    expect(Date.now() - started).toBeGreaterThanOrEqual(295)
  })

  it('a public server is reached at the checked address with TLS required and the name for the certificate', () => {
    const checked = { host: 'smtp.clinic.example', address: '203.0.114.10', private: false }
    expect(smtpTransportOptions(settings({ port: 587 }), checked, 1000)).toMatchObject({
      host: '203.0.114.10',
      port: 587,
      secure: false,
      requireTLS: true,
      servername: 'smtp.clinic.example',
      tls: { servername: 'smtp.clinic.example' },
    })
    expect(
      smtpTransportOptions(settings({ port: 465, secure: true }), checked, 1000),
    ).toMatchObject({ secure: true, requireTLS: false, host: '203.0.114.10' })
    // Only a private relay an on-premise install allowed may go without TLS.
    expect(
      smtpTransportOptions(settings(), { ...checked, address: '10.0.0.5', private: true }, 1000),
    ).toMatchObject({ requireTLS: false })
  })
})
