import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messageTemplate, resyncResult } from '../../src/shared/schemas/messaging-templates'
import { appSecretProof } from '../../src/server/integrations/meta/graph'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import { metaCall } from '../support/meta'
import { setProvider } from '../support/messaging-send'
import { configureMessaging } from '../support/messaging-webhooks'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'
import { z } from 'zod'

// Issue 25: templates. The spec's three per channel exist for every hospital (created on the
// first read, also when reads race), are editable and not deletable; admins add more, checked
// per channel; WhatsApp approvals resync from Meta's Graph list.

const WABA = '1029384756'
const TOKEN = 'EAAG-meta-access-token-for-tests-WXYZ'
const APP_SECRET = 'meta-app-secret-0123456789'
const PHONE_ID = '5550001112223'
const list = z.object({ templates: z.array(messageTemplate.strict()) })

let t: TestApp
let graph: Server
let graphUrl: string
const graphRequests: IncomingMessage[] = []
let metaStatuses: { name: string; status: string; language: string }[] = []
let admin: string
let receptionist: string
let adminB: string

beforeAll(async () => {
  graph = createServer((req, res) => {
    graphRequests.push(req)
    const url = new URL(req.url ?? '/', 'http://x')
    const okAuth =
      req.headers.authorization === `Bearer ${TOKEN}` &&
      url.searchParams.get('appsecret_proof') === appSecretProof(TOKEN, APP_SECRET)
    res.setHeader('content-type', 'application/json')
    // Settings' save proves the WhatsApp ids (issue 39): the number, and the account's numbers.
    if (okAuth && url.pathname === `/v23.0/${PHONE_ID}`) {
      res.end(JSON.stringify({ id: PHONE_ID, display_phone_number: '+91 20 5550 0011' }))
      return
    }
    if (okAuth && url.pathname === `/v23.0/${WABA}/phone_numbers`) {
      res.end(JSON.stringify({ data: [{ id: PHONE_ID }], paging: { cursors: { after: 'a' } } }))
      return
    }
    if (url.pathname !== `/v23.0/${WABA}/message_templates` || !okAuth) {
      res.statusCode = 400
      res.end(JSON.stringify({ error: { message: 'Invalid OAuth access token', code: 190 } }))
      return
    }
    // Two pages, to follow the cursor.
    const after = url.searchParams.get('after')
    const data = after ? metaStatuses.slice(1) : metaStatuses.slice(0, 1)
    res.end(
      JSON.stringify({
        data: data.map((d) => ({ ...d, category: 'UTILITY', id: '1' })),
        paging: after ? { cursors: { after: 'b' } } : { cursors: { after: 'a' }, next: 'x' },
      }),
    )
  })
  await new Promise<void>((r) => graph.listen(0, '127.0.0.1', r))
  graphUrl = `http://127.0.0.1:${(graph.address() as AddressInfo).port}`
  t = await createTestApp({
    messagingProviders: {
      twilio: 'http://127.0.0.1:9',
      msg91: 'http://127.0.0.1:9',
      sendgrid: 'http://127.0.0.1:9',
      metaGraph: graphUrl,
      metaGraphVersion: 'v23.0',
      sandboxDeliveryMs: 0,
    },
  })
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
})
afterAll(async () => {
  await t?.close()
  await new Promise((r) => graph?.close(r))
})

const call = (
  cookie: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) => metaCall(t.app, cookie, method, url, body)
const patch = (cookie: string, id: string, body: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/message-templates/${id}`,
    headers: {
      host: 'localhost',
      origin: 'http://localhost',
      'content-type': 'application/json',
      cookie,
    },
    payload: JSON.stringify(body),
  })
const templates = async (cookie: string, query = '') => {
  const res = await call(cookie, 'GET', `/api/message-templates${query}`)
  expect(res.statusCode, res.body).toBe(200)
  return list.strict().parse(res.json()).templates
}

describe('spec templates', () => {
  it("are created on a new hospital's first read, once, even when reads race", async () => {
    const b = await hospitalIdOf(t.db, 'smiledental')
    await queryRows(t.db, sql`delete from message_templates where hospital_id = ${b}`)
    const reads = await Promise.all([templates(adminB), templates(adminB), templates(adminB)])
    for (const r of reads) expect(r).toHaveLength(9)
    const rows = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from message_templates where hospital_id = ${b}`,
    )
    expect(rows[0]?.n).toBe(9)
    const keys = reads[0]?.map((x) => `${x.channel}:${x.key}`).sort()
    expect(keys).toEqual(
      ['email', 'sms', 'whatsapp'].flatMap((c) =>
        ['appointment-reminder', 'follow-up', 'welcome'].map((k) => `${c}:${k}`),
      ),
    )
    const email = reads[0]?.find((x) => x.channel === 'email' && x.key === 'welcome')
    expect(email?.subject).toContain('{name}')
    expect(email?.body).toContain('{name}')
  })

  it('filter by channel; staff read them', async () => {
    const sms = await templates(receptionist, '?channel=sms')
    expect(sms.map((x) => x.channel)).toEqual(['sms', 'sms', 'sms'])
    expect(
      issuePaths(await call(receptionist, 'GET', '/api/message-templates?channel=fax')),
    ).toEqual(['channel'])
  })

  it('are editable but not deletable', async () => {
    const welcome = (await templates(admin, '?channel=whatsapp')).find((x) => x.key === 'welcome')
    if (!welcome) throw new Error('no welcome template')
    const res = await patch(admin, welcome.id, { body: 'Namaste {name}, welcome to {clinic}!' })
    expect(res.statusCode, res.body).toBe(200)
    expect(messageTemplate.parse(res.json())).toMatchObject({
      key: 'welcome',
      body: 'Namaste {name}, welcome to {clinic}!',
    })
    expectError(
      await call(admin, 'DELETE', `/api/message-templates/${welcome.id}`),
      409,
      'CONFLICT',
    )
  })
})

describe('added templates', () => {
  let id = ''
  it('are created, edited and deleted by admins only, with an audit row', async () => {
    const body = {
      channel: 'sms',
      name: 'Lab report ready',
      body: 'Dear {#var#}, your lab report is ready at Sanjeevani. -ARGYCL',
      category: 'service_implicit',
      dltTemplateId: '1207161234567890123',
    }
    expectError(await call(receptionist, 'POST', '/api/message-templates', body), 403)
    const res = await call(admin, 'POST', '/api/message-templates', body)
    expect(res.statusCode, res.body).toBe(201)
    const created = messageTemplate.strict().parse(res.json())
    expect(created).toMatchObject({ key: null, approvalStatus: 'not_required', language: 'en' })
    id = created.id
    expectError(await call(admin, 'POST', '/api/message-templates', body), 409, 'CONFLICT')
    expectError(await patch(receptionist, id, { name: 'X' }), 403)
    const renamed = await patch(admin, id, { name: 'Report ready' })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(messageTemplate.parse(renamed.json()).name).toBe('Report ready')
    expectError(await call(receptionist, 'DELETE', `/api/message-templates/${id}`), 403)
    const hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
    const audit = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where hospital_id = ${hospitalA} and entity_id = ${id} order by created_at`,
    )
    expect(audit.map((a) => a.action)).toEqual([
      'message_template.created',
      'message_template.updated',
    ])
  })

  it("are another hospital's 404", async () => {
    expectError(await patch(adminB, id, { name: 'Mine now' }), 404)
    expectError(await call(adminB, 'DELETE', `/api/message-templates/${id}`), 404)
    const res = await call(admin, 'DELETE', `/api/message-templates/${id}`)
    expect(res.statusCode, res.body).toBe(204)
    expectError(await call(admin, 'DELETE', `/api/message-templates/${id}`), 404)
  })

  it('are checked per channel', async () => {
    const base = { name: 'Bad', body: 'Hello {name}' }
    const cases: [unknown, string][] = [
      [{ ...base, channel: 'whatsapp', category: 'promotional' }, 'category'],
      [{ ...base, channel: 'sms', category: 'utility' }, 'category'],
      [{ ...base, channel: 'email', category: 'transactional' }, 'subject'],
      [{ ...base, channel: 'sms', category: 'promotional', subject: 'Hi' }, 'subject'],
      [
        { ...base, channel: 'sms', category: 'promotional', dltTemplateId: '12ab' },
        'dltTemplateId',
      ],
      [{ ...base, channel: 'sms', category: 'promotional', dltTemplateId: '123' }, 'dltTemplateId'],
      [{ ...base, channel: 'sms', category: 'promotional', body: 'Hi {patient}' }, 'body'],
      [
        {
          ...base,
          channel: 'email',
          category: 'marketing',
          subject: 'x',
          dltTemplateId: '1207161234567890123',
        },
        'dltTemplateId',
      ],
      [
        { ...base, channel: 'whatsapp', category: 'utility', providerTemplateName: 'Has Caps' },
        'providerTemplateName',
      ],
      [{ ...base, channel: 'whatsapp', category: 'utility', contentSid: 'HX12' }, 'contentSid'],
      [{ ...base, channel: 'whatsapp', category: 'utility', language: 'english' }, 'language'],
      [{ ...base, channel: 'whatsapp', category: 'utility', body: '' }, 'body'],
      [
        { ...base, channel: 'sms', category: 'promotional', providerTemplateName: 'x_y' },
        'providerTemplateName',
      ],
    ]
    for (const [body, path] of cases) {
      expect(
        issuePaths(await call(admin, 'POST', '/api/message-templates', body)),
        JSON.stringify(body),
      ).toEqual([path])
    }
  })
})

describe('resync', () => {
  it('marks WhatsApp templates naming a provider template approved on the sandbox', async () => {
    const res = await call(adminB, 'POST', '/api/message-templates', {
      channel: 'whatsapp',
      name: 'Appointment confirmed',
      body: 'Namaste {{1}}, your appointment is confirmed.',
      category: 'utility',
      providerTemplateName: 'appointment_confirmed',
      variables: ['name'],
    })
    expect(res.statusCode, res.body).toBe(201)
    // The sandbox stands in for a provider that approves every template (issue 40).
    expect(messageTemplate.parse(res.json())).toMatchObject({
      approvalStatus: 'approved',
      sandbox: true,
    })
    const sync = await call(adminB, 'POST', '/api/message-templates/resync')
    expect(sync.statusCode, sync.body).toBe(200)
    const out = resyncResult.strict().parse(sync.json())
    // The sandbox's one note, and no other provider's.
    expect(out.notes).toEqual([expect.stringMatching(/sandbox/)])
    expect(out.templates.find((x) => x.name === 'Appointment confirmed')?.approvalStatus).toBe(
      'approved',
    )
  })

  it('an edit keeps an approval unless it names another provider template or Content SID', async () => {
    const created = await call(adminB, 'POST', '/api/message-templates', {
      channel: 'whatsapp',
      name: 'Lab report ready',
      body: 'Namaste {{1}}, your report is ready.',
      category: 'utility',
      providerTemplateName: 'lab_report_ready',
      variables: ['name'],
    })
    expect(created.statusCode, created.body).toBe(201)
    const id = messageTemplate.parse(created.json()).id
    await call(adminB, 'POST', '/api/message-templates/resync')
    // What is stored shows once a provider is connected (on the sandbox all read approved).
    const smile = await hospitalIdOf(t.db, 'smiledental')
    const edit = async (body: unknown) => {
      await setProvider(t.db, smile, 'whatsapp', 'meta')
      try {
        const res = await patch(adminB, id, body)
        expect(res.statusCode, res.body).toBe(200)
        return messageTemplate.parse(res.json()).approvalStatus
      } finally {
        await setProvider(t.db, smile, 'whatsapp', 'sandbox')
      }
    }
    expect(await edit({ body: 'Namaste {{1}}, your lab report is ready.' })).toBe('approved')
    expect(await edit({ providerTemplateName: 'lab_report_ready_v2' })).toBe('pending')
    await call(adminB, 'POST', '/api/message-templates/resync')
    expect(await edit({ contentSid: `HX${'ab'.repeat(16)}` })).toBe('pending')
    const audits = await queryRows<{ summary: string }>(
      t.db,
      sql`select summary from audit_events where action = 'message_template.updated' and entity_id = ${id} order by created_at`,
    )
    expect(audits.map((a) => a.summary)).toEqual(
      Array(3).fill('Template "Lab report ready" (whatsapp) updated'),
    )
  })

  it("maps Meta's statuses from the Graph list of the business account's templates", async () => {
    const put = await call(admin, 'PUT', '/api/settings/messaging', {
      whatsapp: {
        provider: 'meta',
        settings: { phoneNumberId: PHONE_ID, businessAccountId: WABA },
        secrets: { accessToken: TOKEN, appSecret: APP_SECRET },
      },
    })
    expect(put.statusCode, put.body).toBe(200)
    const names = ['clinic_welcome', 'visit_reminder', 'lab_promo', 'unknown_one']
    const ids: Record<string, string> = {}
    for (const name of names) {
      const res = await call(admin, 'POST', '/api/message-templates', {
        channel: 'whatsapp',
        name,
        body: 'Namaste {name}',
        category: name === 'lab_promo' ? 'marketing' : 'utility',
        providerTemplateName: name,
        language: 'en',
      })
      expect(res.statusCode, res.body).toBe(201)
      ids[name] = messageTemplate.parse(res.json()).id
    }
    metaStatuses = [
      // The same name in another language first: the template's own language wins.
      { name: 'clinic_welcome', status: 'REJECTED', language: 'hi' },
      { name: 'clinic_welcome', status: 'APPROVED', language: 'en' },
      { name: 'visit_reminder', status: 'REJECTED', language: 'en' },
      { name: 'lab_promo', status: 'PAUSED', language: 'en' },
    ]
    const res = await call(admin, 'POST', '/api/message-templates/resync')
    expect(res.statusCode, res.body).toBe(200)
    const out = resyncResult.parse(res.json())
    const statusOf = (n: string) => out.templates.find((x) => x.id === ids[n])?.approvalStatus
    expect(statusOf('clinic_welcome')).toBe('approved')
    expect(statusOf('visit_reminder')).toBe('rejected')
    expect(statusOf('lab_promo')).toBe('paused')
    expect(statusOf('unknown_one')).toBe('pending')
    expect(out.updated).toBe(3)
    // One note, Meta's: the names it does not know (no sandbox, Twilio or rejection note).
    expect(out.notes).toEqual([
      expect.stringMatching(
        /^Not found in WhatsApp Manager: (.+, )?unknown_one(, .+)?\. Check the template name and language\.$/,
      ),
    ])
    const [audit] = await queryRows<{ entity_type: string; summary: string }>(
      t.db,
      sql`select entity_type, summary from audit_events where action = 'message_template.resynced' order by created_at desc limit 1`,
    )
    expect(audit).toEqual({
      entity_type: 'message_template',
      summary: 'WhatsApp template approvals resynced from meta: 3 changed',
    })
    // A refused token is Meta's error, not a 500. Settings no longer saves a token Meta refuses
    // (issue 39: the ids are proven with it), so the token is revoked after it was saved.
    const revoked = {
      whatsapp: {
        provider: 'meta',
        settings: {},
        secrets: { accessToken: 'EAAG-revoked-token-000' },
      },
    }
    expectError(await call(admin, 'PUT', '/api/settings/messaging', revoked), 400, 'BAD_REQUEST')
    await configureMessaging(t.db, await hospitalIdOf(t.db, 'sanjeevani'), {
      whatsapp: {
        provider: 'meta',
        settings: { phoneNumberId: PHONE_ID, businessAccountId: WABA },
        secrets: { accessToken: 'EAAG-revoked-token-000', appSecret: APP_SECRET },
      },
    })
    const refused = expectError(
      await call(admin, 'POST', '/api/message-templates/resync'),
      502,
      'UPSTREAM',
    )
    expect(refused.message).toMatch(/^Meta API Error/)
    expect(refused.message).not.toContain('EAAG')
  })
})
