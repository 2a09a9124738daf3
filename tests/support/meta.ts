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
  method: 'GET' | 'PUT' | 'POST',
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
