import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messagingConnections } from '../../src/server/db/schema/messaging'
import { withTenant } from '../../src/server/db/tenant'
import {
  announceSettingsChanged,
  forgetWebhookConfig,
  WEBHOOK_CONFIG_TTL_MS,
} from '../../src/server/modules/messaging-webhooks/config-cache'
import { secretContext, storageKey } from '../../src/server/modules/messaging-settings/fields'
import { encryptSecret } from '../../src/server/secrets/secrets'
import { expectError } from '../support/http'
import { newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import {
  configureMessaging,
  consentsOf,
  messageRow,
  outboundMessage,
  postTwilio,
  twilioConnection,
  twilioSid,
} from '../support/messaging-webhooks'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Twilio's status callback and inbound webhook (issue 25): X-Twilio-Signature with the routed
// hospital's auth token over the public URL; forward-only statuses; inbound replies stored for
// the sender's lead (or a new one); opt-out/opt-in keywords; no cross-tenant reach.

let t: TestApp
let hospitalA: string
let hospitalB: string
let cookieA: string
const TOKEN_A = 'twilio-auth-token-of-hospital-a'
const TOKEN_B = 'twilio-auth-token-of-hospital-b'
const twilio = (token: string) => twilioConnection(token)

beforeAll(async () => {
  t = await createTestApp()
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  cookieA = await login(t.app, demoEmail('receptionist'))
  await configureMessaging(t.db, hospitalA, { whatsapp: twilio(TOKEN_A), sms: twilio(TOKEN_A) })
  await configureMessaging(t.db, hospitalB, { sms: twilio(TOKEN_B) })
})
afterAll(async () => {
  await t?.close()
})

const statusPath = (hospitalId: string, query = '') =>
  `/api/webhooks/twilio/${hospitalId}/status${query}`

async function leadWithMessage(type: 'sms' | 'whatsapp' = 'sms') {
  const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(71_000) })
  const sid = twilioSid()
  const id = await outboundMessage(t.db, hospitalA, {
    leadId: lead.id,
    type,
    provider: 'twilio',
    providerMessageId: sid,
    contactAddress: lead.phone,
  })
  return { lead, sid, id }
}

describe('Twilio status callback', () => {
  it('moves a message forward by its MessageSid and answers empty TwiML', async () => {
    const { sid, id } = await leadWithMessage()
    const res = await postTwilio(
      t.app,
      statusPath(hospitalA),
      { MessageSid: sid, MessageStatus: 'delivered' },
      TOKEN_A,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/xml/)
    expect(res.body).toContain('<Response/>')
    expect((await messageRow(t.db, id)).status).toBe('delivered')
  })

  it('finds the message by the c= id and records its sid', async () => {
    const { lead } = await leadWithMessage()
    const id = await outboundMessage(t.db, hospitalA, {
      leadId: lead.id,
      type: 'sms',
      provider: 'twilio',
      providerMessageId: null,
      contactAddress: lead.phone,
      status: 'sending',
    })
    const sid = twilioSid()
    const res = await postTwilio(
      t.app,
      statusPath(hospitalA, `?c=${id}`),
      { MessageSid: sid, MessageStatus: 'sent' },
      TOKEN_A,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect(await messageRow(t.db, id)).toMatchObject({ status: 'sent', provider_message_id: sid })
  })

  it('refuses unsigned, forged, wrong-URL and unknown-hospital callbacks with 403, changing nothing', async () => {
    const { sid, id } = await leadWithMessage()
    const params = { MessageSid: sid, MessageStatus: 'delivered' }
    expectError(await postTwilio(t.app, statusPath(hospitalA), params, null), 403, 'FORBIDDEN')
    expectError(
      await postTwilio(t.app, statusPath(hospitalA), params, 'not-the-token'),
      403,
      'FORBIDDEN',
    )
    // Signed for another URL (the query is part of what Twilio signs).
    expectError(
      await postTwilio(
        t.app,
        statusPath(hospitalA),
        params,
        TOKEN_A,
        `http://localhost${statusPath(hospitalA)}?x=1`,
      ),
      403,
      'FORBIDDEN',
    )
    // A tampered parameter after signing.
    const tampered = await t.app.inject({
      method: 'POST',
      url: statusPath(hospitalA),
      headers: {
        host: 'localhost',
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': (
          await import('../../src/server/integrations/messaging/signatures')
        ).twilioSignature(
          `http://localhost${statusPath(hospitalA)}`,
          { MessageSid: sid, MessageStatus: 'sent' },
          TOKEN_A,
        ),
      },
      payload: new URLSearchParams(params).toString(),
    })
    expectError(tampered, 403, 'FORBIDDEN')
    const unknown = crypto.randomUUID()
    expectError(await postTwilio(t.app, statusPath(unknown), params, TOKEN_A), 403, 'FORBIDDEN')
    expectError(
      await postTwilio(t.app, statusPath('not-a-uuid'), params, TOKEN_A),
      403,
      'FORBIDDEN',
    )
    expect((await messageRow(t.db, id)).status).toBe('sent')
  })

  it('treats a replayed callback (same sid, same status) as a no-op, and never moves backwards', async () => {
    const { sid, id } = await leadWithMessage('whatsapp')
    const post = (status: string) =>
      postTwilio(t.app, statusPath(hospitalA), { MessageSid: sid, MessageStatus: status }, TOKEN_A)
    expect((await post('read')).statusCode).toBe(200)
    const before = await queryRows(
      t.db,
      sql`select status_changed_at from communications where id = ${id}`,
    )
    expect((await post('read')).statusCode).toBe(200)
    expect((await post('delivered')).statusCode).toBe(200)
    expect((await post('sent')).statusCode).toBe(200)
    expect((await post('queued')).statusCode).toBe(200)
    expect((await messageRow(t.db, id)).status).toBe('read')
    const after = await queryRows(
      t.db,
      sql`select status_changed_at from communications where id = ${id}`,
    )
    expect(after).toEqual(before)
  })

  it('stores a failure with its reason; 63016 is the WhatsApp window', async () => {
    const { sid, id } = await leadWithMessage('whatsapp')
    await postTwilio(
      t.app,
      statusPath(hospitalA),
      { MessageSid: sid, MessageStatus: 'failed', ErrorCode: '63016' },
      TOKEN_A,
    )
    expect(await messageRow(t.db, id)).toMatchObject({
      status: 'failed',
      failure_code: '63016',
      failure_reason: expect.stringContaining('last 24 hours') as string,
    })
  })

  it('records an opt-out (method provider) on error 21610, once', async () => {
    const { sid, id, lead } = await leadWithMessage()
    for (let i = 0; i < 2; i++) {
      const res = await postTwilio(
        t.app,
        statusPath(hospitalA),
        { MessageSid: sid, MessageStatus: 'undelivered', ErrorCode: '21610' },
        TOKEN_A,
      )
      expect(res.statusCode, res.body).toBe(200)
    }
    expect((await messageRow(t.db, id)).status).toBe('failed')
    expect(await consentsOf(t.db, lead.phone)).toEqual([
      { hospital_id: hospitalA, channel: 'sms', action: 'opt_out', method: 'provider' },
    ])
  })

  it('answers 400 to a signed but malformed callback', async () => {
    const res = await postTwilio(t.app, statusPath(hospitalA), { MessageStatus: 'sent' }, TOKEN_A)
    expectError(res, 400, 'VALIDATION')
    const badC = await postTwilio(
      t.app,
      statusPath(hospitalA, '?c=nope'),
      { MessageSid: twilioSid(), MessageStatus: 'sent' },
      TOKEN_A,
    )
    expectError(badC, 400, 'VALIDATION')
  })

  it('refuses other content types (415)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: statusPath(hospitalA),
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    })
    expect(res.statusCode).toBe(415)
  })
})

describe('cached auth tokens', () => {
  it('are dropped at once on every instance when settings change (NOTIFY), not after the TTL', async () => {
    const { sid } = await leadWithMessage()
    const params = { MessageSid: sid, MessageStatus: 'sent' }
    const ROTATED = 'twilio-auth-token-rotated-a'
    forgetWebhookConfig(t.db, hospitalA)
    const warmed = Date.now()
    expect((await postTwilio(t.app, statusPath(hospitalA), params, TOKEN_A)).statusCode).toBe(200)
    const secrets: Record<string, string> = {}
    for (const channel of ['whatsapp', 'sms'] as const) {
      secrets[storageKey(channel, 'authToken')] = encryptSecret(
        ROTATED,
        secretContext(hospitalA, channel, 'authToken'),
      )
    }
    await withTenant(t.db, { hospitalId: hospitalA, userId: null }, (tx) =>
      tx.update(messagingConnections).set({ secrets }),
    )
    // Saved without a word: the cached token still opens the door (for at most the TTL).
    expect((await postTwilio(t.app, statusPath(hospitalA), params, TOKEN_A)).statusCode).toBe(200)
    await withTenant(t.db, { hospitalId: hospitalA, userId: null }, (tx) =>
      announceSettingsChanged(tx, hospitalA),
    )
    let status = 0
    for (let i = 0; i < 40 && status !== 403; i++) {
      status = (await postTwilio(t.app, statusPath(hospitalA), params, TOKEN_A)).statusCode
      if (status !== 403) await new Promise((r) => setTimeout(r, 50))
    }
    expect(status).toBe(403)
    expect(Date.now() - warmed).toBeLessThan(WEBHOOK_CONFIG_TTL_MS)
    expect((await postTwilio(t.app, statusPath(hospitalA), params, ROTATED)).statusCode).toBe(200)
    await configureMessaging(t.db, hospitalA, { whatsapp: twilio(TOKEN_A), sms: twilio(TOKEN_A) })
  })
})

describe('a callback for hospital A can never touch hospital B', () => {
  it("B's valid signature with A's message sid changes nothing", async () => {
    const { sid, id } = await leadWithMessage()
    const res = await postTwilio(
      t.app,
      statusPath(hospitalB),
      { MessageSid: sid, MessageStatus: 'delivered' },
      TOKEN_B,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect((await messageRow(t.db, id)).status).toBe('sent')
    // ...nor by A's communication id in c=.
    const byId = await postTwilio(
      t.app,
      statusPath(hospitalB, `?c=${id}`),
      { MessageSid: sid, MessageStatus: 'delivered' },
      TOKEN_B,
    )
    expect(byId.statusCode, byId.body).toBe(200)
    expect((await messageRow(t.db, id)).status).toBe('sent')
    // ...and A's token does not open B's URL.
    expectError(
      await postTwilio(
        t.app,
        statusPath(hospitalB),
        { MessageSid: sid, MessageStatus: 'delivered' },
        TOKEN_A,
      ),
      403,
    )
  })
})
