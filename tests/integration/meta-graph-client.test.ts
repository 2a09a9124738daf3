import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadEnv } from '../../src/server/env'
import { createGraphClient, GraphError } from '../../src/server/integrations/meta/graph'
import { type FakeGraph, graphErrors, startFakeGraph } from '../support/fakes/meta-graph'

// Issue 24 item 7: the Graph client never follows a redirect (a 3xx is a provider error and
// its Location is never fetched), and META_GRAPH_URL must be https in production.

let graph: FakeGraph
/** Another host: it must never be asked anything. */
let elsewhere: { url: string; requests: string[]; close: () => Promise<void> }

const PAGE = { id: '7001002003', token: 'EAAGredirectTestToken0001', secret: 'redirect-secret-01' }

beforeAll(async () => {
  graph = await startFakeGraph()
  graph.pages.set(PAGE.id, { ...PAGE, name: 'P', appSecret: PAGE.secret, forms: [] })
  const requests: string[] = []
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ id: '666', name: 'Not Meta' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  elsewhere = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
})
afterAll(async () => {
  await graph?.close()
  await elsewhere?.close()
})

const client = () =>
  createGraphClient(
    { baseUrl: graph.url, version: graph.version },
    { pageAccessToken: PAGE.token, appSecret: PAGE.secret },
  )

async function failure(call: Promise<unknown>): Promise<GraphError> {
  try {
    await call
  } catch (error) {
    if (error instanceof GraphError) return error
    throw error
  }
  throw new Error('expected the call to fail')
}

describe('Graph client redirects', () => {
  it('answers a 3xx as a provider error and never fetches its Location', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      graph.redirectNext(`${elsewhere.url}/v21.0/me?fields=id,name`, status)
      const error = await failure(client().getTokenPage())
      expect([error.kind, error.message]).toEqual([
        'provider',
        `Meta API Error: unexpected redirect (HTTP ${status})`,
      ])
    }
    graph.redirectNext(`${elsewhere.url}/v21.0/123`)
    expect((await failure(client().fetchLead('123'))).kind).toBe('provider')
    expect(elsewhere.requests).toEqual([])
    // Normal service afterwards.
    expect(await client().getTokenPage()).toEqual({ id: PAGE.id, name: 'P' })
  })

  it('classifies a refused appsecret_proof apart from other code-100 errors', async () => {
    graph.failNext(graphErrors.invalidProof)
    expect((await failure(client().getTokenPage())).kind).toBe('app_secret')
    graph.failNext(graphErrors.unknownObject)
    expect((await failure(client().getTokenPage())).kind).toBe('provider')
  })
})

describe('META_GRAPH_URL', () => {
  const production = { NODE_ENV: 'production', BASE_URL: 'https://crm.example.in' }

  it('must be https with NODE_ENV=production', () => {
    expect(() => loadEnv({ ...production, META_GRAPH_URL: 'http://127.0.0.1:5179' })).toThrow(
      /META_GRAPH_URL: must be an https:\/\/ URL with NODE_ENV=production/,
    )
    expect(
      loadEnv({ ...production, META_GRAPH_URL: 'https://graph.facebook.com' }).META_GRAPH_URL,
    ).toBe('https://graph.facebook.com')
    expect(loadEnv(production).META_GRAPH_URL).toBe('https://graph.facebook.com')
  })

  it('may be http for a local fake in development and tests', () => {
    for (const NODE_ENV of ['development', 'test']) {
      expect(loadEnv({ NODE_ENV, META_GRAPH_URL: 'http://127.0.0.1:5179' }).META_GRAPH_URL).toBe(
        'http://127.0.0.1:5179',
      )
    }
  })

  it('has a per-hospital quota of accepted webhook changes, 600 a minute by default', () => {
    expect(loadEnv({}).META_WEBHOOK_CHANGES_PER_MINUTE).toBe(600)
    expect(
      loadEnv({ META_WEBHOOK_CHANGES_PER_MINUTE: '120' }).META_WEBHOOK_CHANGES_PER_MINUTE,
    ).toBe(120)
    expect(() => loadEnv({ META_WEBHOOK_CHANGES_PER_MINUTE: '0' })).toThrow(
      /META_WEBHOOK_CHANGES_PER_MINUTE/,
    )
  })
})
