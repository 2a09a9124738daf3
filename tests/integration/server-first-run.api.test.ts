import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import packageJson from '../../package.json'
import { messagingSettingsView } from '../../src/shared/schemas/messaging-settings'
import { login } from '../support/login'
import { createTestApp, demoEmail, hospitalIdOf, type TestApp } from '../support/test-app'

// Issue 40 items 5, 18 and 24, as a new user's first run sees them.
// Item 5: without BASE_URL the webhook addresses Settings shows for WhatsApp, Twilio
// and SendGrid were http://localhost:3000/... (a hard-coded fallback) while the Meta card showed
// the real origin. One builder (http/public-url.ts) makes them all from the request's origin.

let t: TestApp
let admin: string
const logLines: string[] = []
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(chunk.toString('utf8'))
    done()
  },
})

beforeAll(async () => {
  t = await createTestApp({ baseURL: undefined, logLevel: 'info', logStream })
  admin = await login(t.app, demoEmail('admin'))
})
afterAll(async () => {
  await t?.close()
})

describe('public URLs without BASE_URL', () => {
  it("Settings' webhook URLs are on the request's origin, the same as the Meta card's", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/settings/messaging',
      headers: { cookie: admin, host: 'clinic.test:5000' },
    })
    expect(res.statusCode, res.body).toBe(200)
    const view = messagingSettingsView.strict().parse(res.json())
    const h = await hospitalIdOf(t.db, 'sanjeevani')
    expect(view.webhookUrls).toEqual({
      twilioStatus: `http://clinic.test:5000/api/webhooks/twilio/${h}/status`,
      twilioInbound: `http://clinic.test:5000/api/webhooks/twilio/${h}/inbound`,
      whatsapp: 'http://clinic.test:5000/api/webhooks/whatsapp',
      sendgrid: `http://clinic.test:5000/api/webhooks/sendgrid/${h}`,
      metaLeads: 'http://clinic.test:5000/api/webhooks/meta',
    })
    expect(res.body).not.toContain('localhost:3000')
  })
})

describe('logs (item 18)', () => {
  it('one line per request at info: method, path, status and time', async () => {
    logLines.length = 0
    const res = await t.app.inject({ method: 'GET', url: '/healthz?probe=1' })
    expect(res.statusCode).toBe(200)
    const lines = logLines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
    const mine = lines.filter((l) => l.req?.url === '/healthz' || l.reqId === lines.at(-1)?.reqId)
    expect(mine).toHaveLength(1)
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/healthz' },
      res: { statusCode: 200 },
    })
    expect(typeof mine[0].responseTime).toBe('number')
  })
})

describe('version (item 24)', () => {
  it("GET /healthz answers package.json's version", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' })
    expect(res.json()).toEqual({ status: 'ok', version: packageJson.version })
    expect(packageJson.version).toMatch(/^\d+\.\d+\.\d+$/)
  })
})

describe("a receptionist's Login as Admin (item 13)", () => {
  it('signs out, then opens the sign-in page (not their own home); no other target', async () => {
    const cookie = await login(t.app, demoEmail('receptionist'))
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/logout?next=login',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/login')
    const user = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })
    expect(user.statusCode).toBe(401)
    const other = await login(t.app, demoEmail('receptionist'))
    const evil = await t.app.inject({
      method: 'GET',
      url: '/api/logout?next=https://evil.test',
      headers: { cookie: other, 'sec-fetch-site': 'same-origin' },
    })
    expect(evil.headers.location).toBe('/')
  })
})
