import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messageTemplate, resyncResult } from '../../src/shared/schemas/messaging-templates'
import { startFakeTwilio, type FakeTwilio } from '../support/fakes/twilio'
import { expectError } from '../support/http'
import { login } from '../support/login'
import { metaCall } from '../support/meta'
import { createTestApp, demoEmail, type TestApp } from '../support/test-app'

// Issue 25: a WhatsApp template sent through Twilio carries its Content SID; Resync reads each
// one's WhatsApp approval from Twilio's Content API (GET /v1/Content/{Sid}/ApprovalRequests,
// Basic auth with the hospital's own account), against the local fake.

const SID = `AC${'b2'.repeat(16)}`
const TOKEN = 'twilio-auth-token-for-content-7788'
const OTHER_SID = `AC${'c3'.repeat(16)}`
const content = (n: number) => `HX${n.toString(16).padStart(32, '0')}`

let t: TestApp
let twilio: FakeTwilio
let admin: string
let adminB: string

beforeAll(async () => {
  twilio = await startFakeTwilio({ [SID]: TOKEN, [OTHER_SID]: 'another-accounts-token-0000' })
  t = await createTestApp({
    messagingProviders: {
      twilio: twilio.url,
      twilioContent: twilio.url,
      msg91: 'http://127.0.0.1:9',
      sendgrid: 'http://127.0.0.1:9',
      metaGraph: 'http://127.0.0.1:9',
      metaGraphVersion: 'v23.0',
      sandboxDeliveryMs: 0,
    },
  })
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
})
afterAll(async () => {
  await t?.close()
  await twilio?.close()
})

const call = (
  cookie: string,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
) => metaCall(t.app, cookie, method, url, payload)

async function useTwilio(cookie: string, authToken: string) {
  const res = await call(cookie, 'PUT', '/api/settings/messaging', {
    whatsapp: {
      provider: 'twilio',
      settings: { accountSid: SID, from: '+14155238886' },
      secrets: { authToken },
    },
  })
  expect(res.statusCode, res.body).toBe(200)
}

async function addTemplate(cookie: string, name: string, contentSid: string) {
  const res = await call(cookie, 'POST', '/api/message-templates', {
    channel: 'whatsapp',
    name,
    body: 'Namaste {name}, your appointment is on {date}.',
    category: 'utility',
    contentSid,
    variables: ['name', 'date'],
  })
  expect(res.statusCode, res.body).toBe(201)
  return messageTemplate.parse(res.json()).id
}

describe('resync through Twilio', () => {
  it("maps each Content template's WhatsApp approval and says what needs doing", async () => {
    await useTwilio(admin, TOKEN)
    const ids = {
      approved: await addTemplate(admin, 'OPD reminder', content(1)),
      rejected: await addTemplate(admin, 'Lab report ready', content(2)),
      paused: await addTemplate(admin, 'Health camp invite', content(3)),
      unsubmitted: await addTemplate(admin, 'Feedback request', content(4)),
      unknown: await addTemplate(admin, 'Old greeting', content(5)),
      otherAccount: await addTemplate(admin, 'Borrowed template', content(6)),
    }
    twilio.contentApprovals.set(content(1), { accountSid: SID, status: 'approved' })
    twilio.contentApprovals.set(content(2), {
      accountSid: SID,
      status: 'rejected',
      rejectionReason: 'Variables at the start of the message',
    })
    twilio.contentApprovals.set(content(3), { accountSid: SID, status: 'paused' })
    twilio.contentApprovals.set(content(4), { accountSid: SID, status: 'unsubmitted' })
    // Another account's template is not this hospital's to read: Twilio answers 404.
    twilio.contentApprovals.set(content(6), { accountSid: OTHER_SID, status: 'approved' })
    const before = twilio.requests.length

    const res = await call(admin, 'POST', '/api/message-templates/resync')
    expect(res.statusCode, res.body).toBe(200)
    const out = resyncResult.strict().parse(res.json())
    const statusOf = (id: string) => out.templates.find((x) => x.id === id)?.approvalStatus
    expect(statusOf(ids.approved)).toBe('approved')
    expect(statusOf(ids.rejected)).toBe('rejected')
    expect(statusOf(ids.paused)).toBe('paused')
    expect(statusOf(ids.unsubmitted)).toBe('pending')
    expect(statusOf(ids.unknown)).toBe('pending')
    expect(statusOf(ids.otherAccount)).toBe('pending')
    expect(out.updated).toBe(3)
    const notes = out.notes.join('\n')
    expect(notes).toContain('Rejected by WhatsApp: Lab report ready: Variables at the start')
    expect(notes).toContain(
      'Not yet submitted to WhatsApp for approval in Twilio: Feedback request',
    )
    expect(notes).toContain(`Old greeting (${content(5)})`)
    expect(notes).toContain(`Borrowed template (${content(6)})`)
    // Exactly Twilio's three notes: not found, not submitted, rejected.
    expect(out.notes).toHaveLength(3)
    expect(out.notes[0]).toMatch(
      /^Not found in Twilio's Content API: .+\. Check the Content SID\.$/,
    )

    // The real request shape: one GET per Content SID, Basic auth with the hospital's account.
    const sent = twilio.requests.slice(before)
    expect(sent.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `GET /v1/Content/${content(n)}/ApprovalRequests`),
    )
    const basic = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`
    expect(sent.every((r) => r.headers.authorization === basic)).toBe(true)

    // Approval moves on at Twilio; the next resync follows it.
    twilio.contentApprovals.set(content(2), { accountSid: SID, status: 'approved' })
    const again = resyncResult.parse(
      (await call(admin, 'POST', '/api/message-templates/resync')).json(),
    )
    expect(again.templates.find((x) => x.id === ids.rejected)?.approvalStatus).toBe('approved')
    expect(again.updated).toBe(1)
  })

  it("a refused account is Twilio's error (502), never its token, and changes nothing", async () => {
    await useTwilio(adminB, 'a-wrong-token-ZZZZ')
    const id = await addTemplate(adminB, 'Dental recall', content(9))
    twilio.contentApprovals.set(content(9), { accountSid: SID, status: 'approved' })
    const refused = expectError(
      await call(adminB, 'POST', '/api/message-templates/resync'),
      502,
      'UPSTREAM',
    )
    expect(refused.message).toMatch(/^Twilio API Error: Authenticate/)
    expect(refused.message).not.toContain('ZZZZ')
    const list = (await call(adminB, 'GET', '/api/message-templates')).json() as {
      templates: { id: string; approvalStatus: string }[]
    }
    expect(list.templates.find((x) => x.id === id)?.approvalStatus).toBe('pending')
  })
})
