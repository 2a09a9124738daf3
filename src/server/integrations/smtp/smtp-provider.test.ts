import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeSmtp, type FakeSmtp } from '../../../../tests/support/fakes/smtp'
import type { OutboundMessage } from '../messaging/provider'
import { smtpProvider } from './smtp-provider'

let smtp: FakeSmtp
const signal = () => new AbortController().signal
const settings = (port: number, over: Partial<Parameters<typeof smtpProvider>[0]> = {}) => ({
  host: '127.0.0.1',
  port,
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

/** An SMTP server that refuses every recipient with `code`. */
async function refusingServer(code: number): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error('Refused by the test'), { responseCode: code }))
    },
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

beforeAll(async () => {
  smtp = await startFakeSmtp({ auth: { user: 'clinic', pass: 'secret' } })
})
afterAll(() => smtp.close())

describe('SMTP adapter against a local SMTP server', () => {
  it('sends with the key as Message-ID, authenticated, from the hospital', async () => {
    const r = await smtpProvider(settings(smtp.port)).send(mail(), signal())
    expect(r).toMatchObject({
      ok: true,
      status: 'sent',
      providerMessageId: '<comm-5@arogya.local>',
    })
    const got = smtp.messages.at(-1)
    expect(got?.headers['message-id']).toBe('<comm-5@arogya.local>')
    expect(got?.user).toBe('clinic')
    expect(got?.rcptTo).toEqual(['asha@example.in'])
    expect(got?.subject).toBe('Your appointment')
    expect(got?.text).toBe('See you on Friday.')
    expect(got?.from).toContain('care@sanjeevani.in')
  })

  it('a wrong password is auth', async () => {
    const r = await smtpProvider(settings(smtp.port, { password: 'wrong' })).send(mail(), signal())
    expect(r).toMatchObject({ ok: false, kind: 'auth' })
  })

  it('a refused connection is temporary', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((r) => closed.close(() => r()))
    expect(await smtpProvider(settings(port)).send(mail(), signal())).toMatchObject({
      ok: false,
      kind: 'temporary',
    })
  })

  it('a recipient refused with 550 is invalid; with 450 temporary', async () => {
    for (const [code, kind] of [
      [550, 'invalid_number'],
      [450, 'temporary'],
    ] as const) {
      const server = await refusingServer(code)
      const r = await smtpProvider(settings(server.port, { user: '' })).send(mail(), signal())
      await server.close()
      expect(r).toMatchObject({ ok: false, kind })
    }
  })

  it('a server that never greets is aborted by the signal', async () => {
    const sockets = new Set<Socket>()
    const silent: Server = createServer((s) => sockets.add(s))
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()))
    const { port } = silent.address() as AddressInfo
    const started = Date.now()
    await expect(
      smtpProvider(settings(port)).send(mail(), AbortSignal.timeout(300)),
    ).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(5_000)
    for (const s of sockets) s.destroy()
    await new Promise<void>((r) => silent.close(() => r()))
  })

  it('lookup is unknown', async () => {
    expect(
      await smtpProvider(settings(1)).lookup(
        { idempotencyKey: 'k', to: 'a@b.in', since: new Date() },
        signal(),
      ),
    ).toEqual({ found: 'unknown' })
  })
})
