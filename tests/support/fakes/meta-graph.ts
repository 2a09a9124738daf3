import { createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A lead as the fake serves it (Graph's lead object). */
export interface FakeLead {
  id: string
  created_time: string
  form_id?: string
  platform?: string
  campaign_name?: string
  ad_name?: string
  field_data: { name: string; values: string[] }[]
}

/** Graph's documented error body. */
export interface GraphErrorBody {
  error: { message: string; type: string; code: number; error_subcode?: number; fbtrace_id: string }
}

export const graphErrors = {
  expiredToken: {
    status: 400,
    body: {
      error: {
        message: 'Error validating access token: Session has expired on Monday, 23-Nov-26.',
        type: 'OAuthException',
        code: 190,
        error_subcode: 463,
        fbtrace_id: 'AbCdEfGh123',
      },
    },
  },
  rateLimited: {
    status: 400,
    body: {
      error: {
        message: '(#4) Application request limit reached',
        type: 'OAuthException',
        code: 4,
        fbtrace_id: 'AbCdEfGh456',
      },
    },
  },
  unknownObject: {
    status: 400,
    body: {
      error: {
        message:
          "Unsupported get request. Object with ID '123' does not exist, cannot be loaded due to missing permissions, or does not support this operation.",
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
        fbtrace_id: 'AbCdEfGh789',
      },
    },
  },
  invalidProof: {
    status: 400,
    body: {
      error: {
        message: 'Invalid appsecret_proof provided in the API argument',
        type: 'GraphMethodException',
        code: 100,
        fbtrace_id: 'AbCdEfGh000',
      },
    },
  },
} satisfies Record<string, { status: number; body: GraphErrorBody }>

export interface FakeGraphPage {
  id: string
  name: string
  /**
   * The token and the secret of the app that made it: Graph checks an appsecret_proof sent
   * with the token against that secret (code 100 when it does not match).
   */
  token: string
  appSecret: string
  forms: { id: string; name: string; leads: FakeLead[] }[]
}

export interface FakeGraph {
  /** http://127.0.0.1:<port> (META_GRAPH_URL) */
  url: string
  version: string
  pages: Map<string, FakeGraphPage>
  /** Every request, for assertions (path, query, authorization). */
  requests: { path: string; query: URLSearchParams; authorization: string | undefined }[]
  /** Requests that broke the expected shape (wrong version, token in the query, bad proof...). */
  shapeErrors: string[]
  /** The next n requests answer this error instead (then normal service resumes). */
  failNext: (error: { status: number; body: GraphErrorBody }, times?: number) => void
  /** The next request answers `status` with this Location instead (a redirect). */
  redirectNext: (location: string, status?: number) => void
  /** Leads per page of /{form}/leads (default 2, so paging is exercised). */
  pageSize: number
  close: () => Promise<void>
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

function invalidToken(res: ServerResponse) {
  json(res, 400, {
    error: {
      message: 'Invalid OAuth access token - Cannot parse access token',
      type: 'OAuthException',
      code: 190,
      fbtrace_id: 'FakeTrace0',
    },
  })
}

/**
 * A local stand-in for graph.facebook.com on a random port. It checks what the real API would
 * need and what we promise: GET only, /vNN.N/ paths, the page token in `Authorization: Bearer`
 * (never `access_token` in the query), a correct `appsecret_proof`, and the fields asked for;
 * it serves pages, lead forms and leads in pages of `pageSize` with `paging.next` cursors,
 * honours the `time_created` filter, and returns Graph's documented error bodies on demand.
 * `port` 0 picks a free one (the e2e run gives a fixed one: tests/e2e/support/fake-graph-server.ts).
 */
export async function startFakeGraph(version = 'v21.0', port = 0): Promise<FakeGraph> {
  const pages = new Map<string, FakeGraphPage>()
  const requests: FakeGraph['requests'] = []
  const shapeErrors: string[] = []
  const failures: { status: number; body: GraphErrorBody }[] = []
  const redirects: { location: string; status: number }[] = []
  const fake = { pageSize: 2 }

  function findToken(token: string) {
    return [...pages.values()].find((p) => p.token === token)
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake')
    const authorization = req.headers.authorization
    requests.push({ path: url.pathname, query: url.searchParams, authorization })
    if (req.method !== 'GET') return json(res, 405, { error: { message: 'GET only', code: 1 } })
    const parts = url.pathname.split('/').filter(Boolean)
    if (parts[0] !== version) shapeErrors.push(`path without ${version}: ${url.pathname}`)
    if (url.searchParams.has('access_token')) shapeErrors.push('access_token in the query')
    const redirect = redirects.shift()
    if (redirect) {
      res.writeHead(redirect.status, { location: redirect.location })
      return res.end()
    }
    const failure = failures.shift()
    if (failure) return json(res, failure.status, failure.body)
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1]
    const page = token ? findToken(token) : undefined
    if (!token || !page) return invalidToken(res)
    // Like Graph: a proof that is sent is always checked against the token's app (whether or
    // not the app requires one). We promise to send it with every call, so a missing one is
    // a shape error; a wrong one is what Meta answers for an app secret of another app.
    const proof = createHmac('sha256', page.appSecret).update(token).digest('hex')
    const sent = url.searchParams.get('appsecret_proof')
    if (!sent) shapeErrors.push(`no appsecret_proof on ${url.pathname}`)
    if (sent !== proof) {
      return json(res, 400, graphErrors.invalidProof.body)
    }
    const [, id, edge] = parts
    // A page access token's /me is its page (what Test Connection checks).
    if (parts.length === 2 && (id === page.id || id === 'me')) {
      if (url.searchParams.get('fields') !== 'id,name') shapeErrors.push('page fields')
      return json(res, 200, { id: page.id, name: page.name })
    }
    if (parts.length === 3 && id === page.id && edge === 'leadgen_forms') {
      return json(res, 200, { data: page.forms.map((f) => ({ id: f.id, name: f.name })) })
    }
    const form = page.forms.find((f) => f.id === id)
    if (parts.length === 3 && form && edge === 'leads') {
      if (!url.searchParams.get('fields')?.includes('field_data')) shapeErrors.push('lead fields')
      let leads = form.leads
      const filtering = url.searchParams.get('filtering')
      if (filtering) {
        const [rule] = JSON.parse(filtering) as { field: string; operator: string; value: number }[]
        if (rule?.field !== 'time_created' || rule.operator !== 'GREATER_THAN_OR_EQUAL') {
          shapeErrors.push(`filtering ${filtering}`)
        } else {
          leads = leads.filter((l) => Date.parse(l.created_time) / 1000 >= rule.value)
        }
      }
      const after = Number(url.searchParams.get('after') ?? '0')
      const slice = leads.slice(after, after + fake.pageSize)
      const next = new URL(url)
      next.searchParams.set('after', String(after + fake.pageSize))
      // Graph's next links carry the token; ours must be stripped and never followed as is.
      next.searchParams.set('access_token', token)
      next.searchParams.delete('appsecret_proof')
      const more = after + fake.pageSize < leads.length
      return json(res, 200, {
        data: slice.map((l) => ({ form_id: form.id, ...l })),
        paging: {
          cursors: { before: 'b', after: 'a' },
          ...(more ? { next: `${baseUrl}${next.pathname}${next.search}` } : {}),
        },
      })
    }
    if (parts.length === 2 && id) {
      for (const f of page.forms) {
        const lead = f.leads.find((l) => l.id === id)
        if (lead) return json(res, 200, { form_id: f.id, ...lead })
      }
    }
    return json(res, 400, graphErrors.unknownObject.body)
  }

  const server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return Object.assign(fake, {
    url: baseUrl,
    version,
    pages,
    requests,
    shapeErrors,
    failNext(error: { status: number; body: GraphErrorBody }, times = 1) {
      for (let i = 0; i < times; i++) failures.push(error)
    },
    redirectNext(location: string, status = 302) {
      redirects.push({ location, status })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}

let leadSeq = 0
/** A lead-ads record with the spec's field names; ids are digits like Meta's. */
export function fakeLead(
  fields: Record<string, string>,
  extra: Partial<Omit<FakeLead, 'field_data'>> = {},
): FakeLead {
  leadSeq++
  return {
    id: `90${String(Date.now()).slice(-8)}${String(leadSeq).padStart(5, '0')}`,
    created_time: new Date().toISOString(),
    field_data: Object.entries(fields).map(([name, value]) => ({ name, values: [value] })),
    ...extra,
  }
}
