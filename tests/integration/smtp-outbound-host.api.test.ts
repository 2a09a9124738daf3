import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { messagingConnections } from '../../src/server/db/schema/messaging'
import { withTenant } from '../../src/server/db/tenant'
import {
  SMTP_HOST_REFUSED_MESSAGE,
  SMTP_PORT_MESSAGE,
  SMTP_UNREACHABLE_MESSAGE,
} from '../../src/server/integrations/smtp/smtp-host'
import { setOutboundPolicy } from '../../src/server/net/outbound-host'
import { testSendResult } from '../../src/shared/schemas/messaging-settings'
import { type FakeSmtp, startFakeSmtpOnMailPort } from '../support/fakes/smtp'
import { expectError } from '../support/http'
import { login } from '../support/login'
import { metaCall } from '../support/meta'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 39, item 6: a hospital's SMTP host passes the outbound-host guard on save and before
// every connection ("Test email" and real sends): loopback, private, link-local and mapped
// addresses, and names resolving to them, are refused with one message; only mail ports;
// SMTP_ALLOW_PRIVATE_HOSTS=true opens the install's own network.

let t: TestApp
let smtp: FakeSmtp
let adminA: string
let adminB: string
let hospitalA: string
let hospitalB: string
let restore = () => {}

/** Every way to name the internal network the issue lists, and the fake relay itself. */
const INTERNAL = [
  '127.0.0.1',
  '10.0.0.1',
  '169.254.169.254',
  '::1',
  '::ffff:127.0.0.1',
  'localhost',
]

beforeAll(async () => {
  smtp = await startFakeSmtpOnMailPort()
  t = await createTestApp({ baseURL: 'http://localhost' })
  adminA = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})
afterEach(() => restore())

const smtpSettings = (host: string, port = 587) => ({
  email: {
    provider: 'smtp',
    settings: { host, port, secure: false, user: '', fromEmail: 'care@sanjeevani.in' },
  },
})
const save = (cookie: string, host: string, port = 587) =>
  metaCall(t.app, cookie, 'PUT', '/api/settings/messaging', smtpSettings(host, port))
const testEmail = (cookie: string) =>
  metaCall(t.app, cookie, 'POST', '/api/settings/messaging/test', {
    channel: 'email',
    to: 'front.desk@example.in',
  })

/** A stored SMTP set-up the save would refuse today (saved before the guard, or restored). */
async function storeDirectly(hospitalId: string, host: string, port: number) {
  const values = {
    hospitalId,
    emailProvider: 'smtp' as const,
    settings: { 'email.host': host, 'email.port': port, 'email.fromEmail': 'care@clinic.in' },
    secrets: {},
  }
  await withTenant(t.db, { hospitalId, userId: null }, (tx) =>
    tx
      .insert(messagingConnections)
      .values(values)
      .onConflictDoUpdate({ target: messagingConnections.hospitalId, set: values }),
  )
}

const storedHost = async (hospitalId: string) =>
  (
    await queryRows<{ settings: Record<string, unknown> | null }>(
      t.db,
      sql`select settings from messaging_connections where hospital_id = ${hospitalId}`,
    )
  )[0]?.settings?.['email.host']

describe('saving a hospital SMTP host', () => {
  it('refuses every internal address and a name resolving to one, with one message and status', async () => {
    restore = setOutboundPolicy({ allowPrivateHosts: false, minRefusalMs: 0 })
    const bodies = new Set<string>()
    for (const host of [...INTERNAL, smtp.address, 'no-such-host.invalid']) {
      const body = expectError(await save(adminA, host), 400, 'VALIDATION')
      expect(body.issues, host).toEqual([
        { path: 'email.settings.host', message: SMTP_HOST_REFUSED_MESSAGE },
      ])
      bodies.add(JSON.stringify(body))
    }
    expect(bodies.size).toBe(1)
    expect(await storedHost(hospitalA)).toBeUndefined()
  })

  it('refuses a port that is not a mail port, naming the mail ports', async () => {
    restore = setOutboundPolicy({ allowPrivateHosts: false, minRefusalMs: 0 })
    for (const port of [22, 80, 3306, 6379]) {
      const body = expectError(await save(adminA, '1.1.1.1', port), 400, 'VALIDATION')
      expect(body.issues).toEqual([{ path: 'email.settings.port', message: SMTP_PORT_MESSAGE }])
    }
    expect(SMTP_PORT_MESSAGE).toBe('Use a mail port: 25, 465, 587 or 2525.')
  })

  it('saves a public host on a mail port', async () => {
    restore = setOutboundPolicy({
      allowPrivateHosts: false,
      minRefusalMs: 0,
      resolve: async () => ['203.0.114.25'],
    })
    const res = await save(adminA, 'smtp.clinic.example', 465)
    expect(res.statusCode, res.body).toBe(200)
    expect(await storedHost(hospitalA)).toBe('smtp.clinic.example')
  })
})

describe('Test email through a hospital SMTP host', () => {
  it('never reaches an internal host: one answer, nothing of the server, nothing sent', async () => {
    restore = setOutboundPolicy({ allowPrivateHosts: false, minRefusalMs: 0 })
    const answers = new Set<string>()
    for (const [host, port] of [
      [smtp.address, smtp.port],
      ...INTERNAL.map((h) => [h, 587] as const),
      // A mail server elsewhere on a port that is not for mail.
      ['1.1.1.1', 6379],
    ] as const) {
      await storeDirectly(hospitalA, host, port)
      const res = await testEmail(adminA)
      expect(res.statusCode, res.body).toBe(200)
      const answer = testSendResult.strict().parse(res.json())
      expect(answer, host).toEqual({
        ok: false,
        provider: 'smtp',
        sandbox: false,
        detail: `${SMTP_UNREACHABLE_MESSAGE} (SMTP_CONNECT)`,
      })
      answers.add(res.body)
    }
    expect(answers.size).toBe(1)
    expect(smtp.messages).toHaveLength(0)
  })

  it('SMTP_ALLOW_PRIVATE_HOSTS=true reaches the local relay, saved and tested', async () => {
    restore = setOutboundPolicy({ allowPrivateHosts: true, minRefusalMs: 0 })
    const res = await save(adminB, smtp.address, smtp.port)
    expect(res.statusCode, res.body).toBe(200)
    expect(await storedHost(hospitalB)).toBe(smtp.address)
    const sent = await testEmail(adminB)
    expect(sent.statusCode, sent.body).toBe(200)
    expect(testSendResult.parse(sent.json())).toMatchObject({ ok: true, provider: 'smtp' })
    expect(smtp.messages.at(-1)?.rcptTo).toEqual(['front.desk@example.in'])
  })
})
