import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import {
  appSecretRefusedMessage,
  listMetaPagesQuery,
  metaConnectionView,
  metaPageClaim,
  metaPageClaimList,
  metaPageParams,
  metaWebhookMessages,
  META_PAGES_PAGE_SIZE,
  releasedMetaPage,
  metaMissingMessages,
  metaSyncResult,
  metaTestResult,
  saveMetaConnectionInput,
  secretHintSchema,
} from './meta'

// The Meta connection's schemas (mutation testing, docs/decisions/024): secrets are only ever
// hints, and what a hospital admin may save is bounded.

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value)
  expect(result.success, `expected ${JSON.stringify(value)} to be refused`).toBe(false)
  return (result.error?.issues ?? []).map((i) => i.message)
}

describe('metaConnectionView', () => {
  const view = {
    pageId: '1234567890',
    pageAccessToken: { set: true, last4: 'abcd' },
    appSecret: { set: false },
    verifyToken: { set: true, last4: null },
    status: 'ok',
    lastError: null,
    webhookError: metaWebhookMessages.signatureFailing,
    lastSyncAt: null,
    webhookReady: false,
  }
  it('carries hints about secrets, never their values', () => {
    expect(metaConnectionView.parse(view)).toEqual(view)
    expect(metaConnectionView.parse({ ...view, status: 'needs_attention' }).status).toBe(
      'needs_attention',
    )
    expect(metaConnectionView.safeParse({ ...view, status: 'broken' }).success).toBe(false)
    expect(secretHintSchema.parse({ set: false })).toEqual({ set: false })
    expect(secretHintSchema.parse({ set: true, last4: 'wxyz' })).toEqual({
      set: true,
      last4: 'wxyz',
    })
    expect(secretHintSchema.safeParse({ set: true }).success).toBe(false)
    expect(secretHintSchema.safeParse({ set: 'yes', last4: null }).success).toBe(false)
  })
})

describe('saveMetaConnectionInput', () => {
  it('takes a numeric page id, and clears a field with an empty value or null', () => {
    expect(
      saveMetaConnectionInput.parse({
        pageId: ' 1234567890 ',
        pageAccessToken: ' EAAB123 ',
        appSecret: 'abc',
        verifyToken: 'v'.repeat(16),
      }),
    ).toEqual({
      pageId: '1234567890',
      pageAccessToken: 'EAAB123',
      appSecret: 'abc',
      verifyToken: 'v'.repeat(16),
    })
    expect(saveMetaConnectionInput.parse({ pageId: '', appSecret: null, verifyToken: '' })).toEqual(
      { pageId: '', appSecret: null, verifyToken: '' },
    )
    expect(saveMetaConnectionInput.parse({})).toEqual({})
    expect(saveMetaConnectionInput.parse({ pageId: '1'.repeat(40) }).pageId).toHaveLength(40)
    expect(saveMetaConnectionInput.parse({ pageAccessToken: 't'.repeat(1024) })).toHaveProperty(
      'pageAccessToken',
      't'.repeat(1024),
    )
  })

  it('refuses page ids that are not just digits', () => {
    for (const pageId of ['abc', '12a', 'a12', '1'.repeat(41), '12 34', '-12']) {
      expect(messagesOf(saveMetaConnectionInput, { pageId })).toEqual([
        'Page ID must be the numeric Facebook page ID',
      ])
    }
    expect(messagesOf(saveMetaConnectionInput, { pageId: 12 })).toEqual(['Page ID must be text'])
  })

  it('refuses secrets with spaces or control characters, and long ones', () => {
    for (const [field, label] of [
      ['pageAccessToken', 'Page access token'],
      ['appSecret', 'App secret'],
      ['verifyToken', 'Verify token'],
    ] as const) {
      for (const bad of [
        `${'a'.repeat(16)} b`,
        `${'a'.repeat(16)}\u0000`,
        `${'a'.repeat(16)}\u007f`,
        `${'a'.repeat(16)}\u001f`,
        `a\tb${'a'.repeat(16)}`,
      ]) {
        expect(messagesOf(saveMetaConnectionInput, { [field]: bad })).toContain(
          `${label} must not contain spaces or control characters`,
        )
      }
      expect(messagesOf(saveMetaConnectionInput, { [field]: 'a'.repeat(1025) })).toContain(
        `${label} is too long`,
      )
      expect(messagesOf(saveMetaConnectionInput, { [field]: 5 })).toContain(`${label} must be text`)
    }
    expect(messagesOf(saveMetaConnectionInput, { verifyToken: 'v'.repeat(15) })).toEqual([
      'Verify token must be at least 16 characters (use a long random value)',
    ])
    expect(saveMetaConnectionInput.safeParse({ pageName: 'x' }).success).toBe(false)
  })
})

describe('Meta results and messages', () => {
  it('describe Test Connection and Sync as the API answers them', () => {
    expect(metaTestResult.parse({ ok: true, pageName: 'Clinic' })).toEqual({
      ok: true,
      pageName: 'Clinic',
    })
    expect(metaTestResult.safeParse({ ok: false, pageName: 'Clinic' }).success).toBe(false)
    const counts = { processed: 3, created: 1, duplicates: 1, errors: 1 }
    expect(metaSyncResult.parse(counts)).toEqual(counts)
    expect(metaSyncResult.safeParse({ ...counts, errors: 0.5 }).success).toBe(false)
  })
  it('say which configuration value is missing', () => {
    expect(metaMissingMessages).toEqual({
      pageId: 'Meta page ID is not set. Set it in Settings → Integrations.',
      pageAccessToken: 'Meta page access token is not set. Set it in Settings → Integrations.',
      appSecret: 'Meta app secret is not set. Set it in Settings → Integrations.',
    })
  })
})

describe('what Settings and the super admin see of webhook problems', () => {
  it('tells the hospital what happened and how to connect the page again', () => {
    expect(Object.keys(metaWebhookMessages)).toEqual(['signatureFailing', 'takenOver', 'released'])
    for (const message of Object.values(metaWebhookMessages)) {
      expect(message).toMatch(/Test Connection/)
    }
    expect(metaWebhookMessages.signatureFailing).toMatch(/^Webhook deliveries for this page fail/)
    expect(metaWebhookMessages.takenOver).toMatch(/connected to another hospital/)
    expect(metaWebhookMessages.released).toMatch(/platform administrator disconnected/)
    expect(appSecretRefusedMessage('Invalid appsecret_proof')).toMatch(
      /^Invalid appsecret_proof\. The App Secret is not the secret of the Meta app .+ run Test Connection again\.$/,
    )
  })

  it('pages the claims list by limit 1..100 and offset 0..1,000,000', () => {
    expect(META_PAGES_PAGE_SIZE).toBe(100)
    expect(listMetaPagesQuery.parse({ limit: '1', offset: '0' })).toEqual({ limit: 1, offset: 0 })
    expect(listMetaPagesQuery.parse({ limit: '100', offset: '1000000' })).toEqual({
      limit: 100,
      offset: 1_000_000,
    })
    expect(listMetaPagesQuery.parse({})).toEqual({})
    const refusals: [Record<string, string>, string][] = [
      [{ limit: 'x' }, 'limit must be a number'],
      [{ limit: '1.5' }, 'limit must be a whole number'],
      [{ limit: '0' }, 'limit must be at least 1'],
      [{ limit: '101' }, 'limit must be at most 100'],
      [{ offset: 'x' }, 'offset must be a number'],
      [{ offset: '0.5' }, 'offset must be a whole number'],
      [{ offset: '-1' }, 'offset must be at least 0'],
      [{ offset: '1000001' }, 'offset is too large'],
    ]
    for (const [query, message] of refusals) {
      expect(messagesOf(listMetaPagesQuery, query)).toEqual([message])
    }
    expect(listMetaPagesQuery.safeParse({ page: '1' }).success).toBe(false)
  })

  it('names a page by its numeric id only', () => {
    expect(metaPageParams.parse({ pageId: '1'.repeat(40) })).toEqual({ pageId: '1'.repeat(40) })
    for (const pageId of ['', 'abc', '12a', 'a12', '1'.repeat(41)]) {
      expect(messagesOf(metaPageParams, { pageId })).toEqual([
        'Page ID must be the numeric Facebook page ID',
      ])
    }
  })

  it('describes a claim as the API answers it', () => {
    const claim = {
      pageId: '123',
      hospitalId: 'h1',
      hospitalName: 'Clinic',
      claimedAt: '2026-11-25T10:00:00.000Z',
      lastProvenAt: '2026-11-25T10:00:00.000Z',
      signatureFailures: 0,
      recentRefusals: 2,
      needsAttention: false,
    }
    expect(metaPageClaim.parse(claim)).toEqual(claim)
    expect(metaPageClaimList.parse({ items: [claim], total: 1 })).toEqual({
      items: [claim],
      total: 1,
    })
    expect(releasedMetaPage.parse({ pageId: '123', hospitalId: 'h1' })).toEqual({
      pageId: '123',
      hospitalId: 'h1',
    })
  })
})
