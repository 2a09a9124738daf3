import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { signMetaBody } from '../../src/server/integrations/meta/signature'
import { browserHeaders } from './login'

let seq = 0
/** A numeric id unique within the run (pages, forms). */
export function graphId(prefix = '1'): string {
  seq++
  return `${prefix}${String(Date.now()).slice(-9)}${String(seq).padStart(4, '0')}`
}

export function metaCall(
  app: FastifyInstance,
  cookie: string | undefined,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  if (method === 'GET') return app.inject({ method, url, headers: cookie ? { cookie } : {} })
  const headers = browserHeaders(cookie)
  if (payload === undefined) {
    delete headers['content-type']
    return app.inject({ method, url, headers })
  }
  return app.inject({ method, url, headers, payload: JSON.stringify(payload) })
}

/** Meta's leadgen delivery for these (page, lead, form) triples. */
export function leadgenDelivery(changes: { pageId: string; leadgenId: string; formId?: string }[]) {
  return {
    object: 'page',
    entry: changes.map((c) => ({
      id: c.pageId,
      time: Math.floor(Date.now() / 1000),
      changes: [
        {
          field: 'leadgen',
          value: {
            leadgen_id: c.leadgenId,
            page_id: c.pageId,
            form_id: c.formId ?? '4440001',
            created_time: Math.floor(Date.now() / 1000),
          },
        },
      ],
    })),
  }
}

/** POSTs a webhook delivery as Meta does: no Origin, raw JSON, signed when a secret is given. */
export function postWebhook(
  app: FastifyInstance,
  body: unknown,
  appSecret?: string,
  headers: Record<string, string> = {},
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body)
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/meta',
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: {
      'content-type': 'application/json',
      'user-agent': 'facebookexternalua',
      ...(appSecret ? { 'x-hub-signature-256': signMetaBody(raw, appSecret) } : {}),
      ...headers,
    },
    payload: raw,
  })
}

/** A page of the fake Graph API as a hospital saves it in Settings. */
export interface PageCredentials {
  page: string
  token: string
  secret: string
  verify?: string
}

/** Saves the page's credentials for the hospital of `cookie` and runs Test Connection. */
export async function connectAndProve(
  app: FastifyInstance,
  cookie: string,
  c: PageCredentials,
): Promise<LightMyRequestResponse> {
  const saved = await metaCall(app, cookie, 'PUT', '/api/integrations/meta', {
    pageId: c.page,
    pageAccessToken: c.token,
    appSecret: c.secret,
    ...(c.verify ? { verifyToken: c.verify } : {}),
  })
  if (saved.statusCode !== 200) throw new Error(`save: ${saved.statusCode} ${saved.body}`)
  return metaCall(app, cookie, 'POST', '/api/integrations/meta/test')
}

/** `n` leadgen changes of one page, with lead ids unique within the run. */
export function manyChanges(pageId: string, n: number) {
  const base = graphId('5')
  return Array.from({ length: n }, (_, i) => ({ pageId, leadgenId: `${base}${i}` }))
}
