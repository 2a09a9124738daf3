import { createHmac } from 'node:crypto'

/**
 * Meta's Graph API for lead ads, called from the server only (never the browser): the page
 * access token goes in the Authorization header, with `appsecret_proof` (HMAC-SHA256 of the
 * token under the app secret) as a parameter, so a leaked token alone cannot be replayed from
 * elsewhere when the app requires the proof. Neither ever appears in a URL, a log or an error.
 */

export interface GraphConfig {
  /** META_GRAPH_URL, e.g. https://graph.facebook.com (tests: the fake's address). */
  baseUrl: string
  /** META_GRAPH_VERSION, e.g. v21.0. */
  version: string
}

export interface GraphCredentials {
  pageAccessToken: string
  appSecret: string
}

export interface LeadForm {
  id: string
  name: string | null
}

export interface GraphLead {
  id: string
  created_time?: string
  form_id?: string
  platform?: string
  campaign_name?: string
  ad_name?: string
  field_data: { name: string; values: string[] }[]
}

/**
 * Why a Graph call failed, as the caller acts on it: `auth` (190: the token is expired or
 * revoked), `app_secret` (Graph refused our appsecret_proof: the app secret is not the secret
 * of the app that made the token), `rate_limited`, `provider` (any other answer), `network`.
 */
export type GraphErrorKind = 'auth' | 'app_secret' | 'rate_limited' | 'provider' | 'network'

/** A failed Graph call; `message` is the spec's 'Meta API Error: ' plus the provider's text. */
export class GraphError extends Error {
  override name = 'GraphError'
  constructor(
    readonly kind: GraphErrorKind,
    message: string,
    readonly code: number | null = null,
  ) {
    super(message)
  }
}

const RATE_LIMIT_CODES = new Set([4, 17, 32, 613])
const LEAD_FIELDS = 'id,created_time,form_id,platform,campaign_name,ad_name,field_data'
/** Pages of leads followed at most per form and call (a guard against a looping cursor). */
const MAX_PAGES = 1000
const TIMEOUT_MS = 15_000

export function appSecretProof(token: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(token).digest('hex')
}

/** Graph's error body, `{ error: { message, type, code, fbtrace_id } }`, as a GraphError. */
export function graphErrorFrom(status: number, body: unknown): GraphError {
  const error = (body as { error?: { message?: unknown; code?: unknown } } | null)?.error
  const code = typeof error?.code === 'number' ? error.code : null
  const text =
    typeof error?.message === 'string' && error.message
      ? error.message.slice(0, 500)
      : `HTTP ${status}`
  const message = `Meta API Error: ${text}`
  if (code === 190) return new GraphError('auth', message, code)
  // Graph checks a proof whenever one is sent (required by the app or not): code 100 with
  // "Invalid appsecret_proof provided in the API argument".
  if (code === 100 && /appsecret_proof/i.test(text)) {
    return new GraphError('app_secret', message, code)
  }
  if ((code !== null && RATE_LIMIT_CODES.has(code)) || status === 429) {
    return new GraphError('rate_limited', message, code)
  }
  return new GraphError('provider', message, code)
}

export interface GraphClient {
  /** The page the page access token belongs to (`GET /me`): proves the token is the page's. */
  getTokenPage: () => Promise<{ id: string; name: string }>
  listLeadForms: (pageId: string) => Promise<LeadForm[]>
  /** Every lead of a form created at or after `since` (all when null), following paging.next. */
  listLeads: (formId: string, since: Date | null) => Promise<GraphLead[]>
  fetchLead: (leadId: string) => Promise<GraphLead>
}

/** A Graph id: digits (pages, forms, leads); anything else would change the request path. */
const GRAPH_ID = /^\d{1,40}$/

function assertId(id: string, what: string): void {
  if (!GRAPH_ID.test(id)) throw new GraphError('provider', `Meta API Error: invalid ${what}`)
}

export function createGraphClient(
  config: GraphConfig,
  credentials: GraphCredentials,
  fetchImpl: typeof fetch = fetch,
): GraphClient {
  const root = `${config.baseUrl.replace(/\/+$/, '')}/${config.version}`
  const proof = appSecretProof(credentials.pageAccessToken, credentials.appSecret)
  const origin = new URL(root).origin

  async function get(url: URL): Promise<unknown> {
    // paging.next comes from the provider: only ever follow it to the configured host, and
    // with our own proof (never a token it may carry in its query). Redirects are never
    // followed either (a 3xx is a provider error and its Location is not fetched), so nothing
    // leaves for another host, whatever an answer says.
    if (url.origin !== origin) throw new GraphError('provider', 'Meta API Error: bad paging link')
    url.searchParams.delete('access_token')
    url.searchParams.set('appsecret_proof', proof)
    let response: Response
    try {
      response = await fetchImpl(url, {
        headers: {
          authorization: `Bearer ${credentials.pageAccessToken}`,
          accept: 'application/json',
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'manual',
      })
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'unreachable'
      throw new GraphError('network', `Meta API Error: Graph API ${reason}`)
    }
    if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
      await response.body?.cancel().catch(() => undefined)
      throw new GraphError(
        'provider',
        `Meta API Error: unexpected redirect (HTTP ${response.status})`,
      )
    }
    let body: unknown
    try {
      body = await response.json()
    } catch {
      body = null
    }
    if (!response.ok || (body as { error?: unknown } | null)?.error) {
      throw graphErrorFrom(response.status, body)
    }
    if (!body || typeof body !== 'object') {
      throw new GraphError('provider', 'Meta API Error: unexpected response')
    }
    return body
  }

  const at = (path: string, params: Record<string, string> = {}) => {
    const url = new URL(`${root}/${path}`)
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
    return url
  }

  async function pages<T>(first: URL): Promise<T[]> {
    const out: T[] = []
    let next: URL | null = first
    for (let n = 0; next && n < MAX_PAGES; n++) {
      const body = (await get(next)) as { data?: unknown; paging?: { next?: unknown } }
      if (!Array.isArray(body.data))
        throw new GraphError('provider', 'Meta API Error: no data list')
      out.push(...(body.data as T[]))
      const link = body.paging?.next
      next = typeof link === 'string' && body.data.length > 0 ? new URL(link) : null
    }
    return out
  }

  return {
    async getTokenPage() {
      const body = (await get(at('me', { fields: 'id,name' }))) as { id?: unknown; name?: unknown }
      if (typeof body.id !== 'string' || !GRAPH_ID.test(body.id)) {
        throw new GraphError('provider', 'Meta API Error: the token does not belong to a page')
      }
      return { id: body.id, name: typeof body.name === 'string' ? body.name : '' }
    },
    async listLeadForms(pageId) {
      assertId(pageId, 'page ID')
      const forms = await pages<{ id?: unknown; name?: unknown }>(
        at(`${pageId}/leadgen_forms`, { fields: 'id,name', limit: '100' }),
      )
      return forms
        .filter((f) => typeof f.id === 'string' && GRAPH_ID.test(f.id))
        .map((f) => ({ id: f.id as string, name: typeof f.name === 'string' ? f.name : null }))
    },
    async listLeads(formId, since) {
      assertId(formId, 'form ID')
      const params: Record<string, string> = { fields: LEAD_FIELDS, limit: '100' }
      if (since) {
        const seconds = Math.floor(since.getTime() / 1000)
        params.filtering = JSON.stringify([
          { field: 'time_created', operator: 'GREATER_THAN_OR_EQUAL', value: seconds },
        ])
      }
      return pages<GraphLead>(at(`${formId}/leads`, params))
    },
    async fetchLead(leadId) {
      assertId(leadId, 'lead ID')
      return (await get(at(leadId, { fields: LEAD_FIELDS }))) as GraphLead
    },
  }
}
