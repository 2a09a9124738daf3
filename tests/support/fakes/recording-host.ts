import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local host serving call recordings as a provider's storage does (issue 41): GET
 * /<name>.mp3 with the expected Authorization header answers the bytes; without it, 401; an
 * unknown name, 404. Records each request's path and Authorization.
 */
export interface RecordingHost {
  url: string
  files: Map<string, Buffer>
  requests: { path: string; authorization: string | undefined }[]
  close: () => Promise<void>
}

export async function startRecordingHost(authorization: string): Promise<RecordingHost> {
  const files = new Map<string, Buffer>()
  const requests: RecordingHost['requests'] = []
  const server = createServer((req: IncomingMessage, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    requests.push({ path, authorization: req.headers.authorization })
    if (req.headers.authorization !== authorization) {
      res.writeHead(401).end()
      return
    }
    const body = files.get(path)
    if (!body) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': body.length }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    files,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * Twilio's recordings of a call, as the REST API serves them: `GET /2010-04-01/Accounts/{sid}/
 * Recordings.json?CallSid=` (Basic auth: account SID and auth token) lists them; the media
 * `…/Recordings/{RecordingSid}.mp3` redirects (302) to a signed URL on another origin
 * (a second local server) that needs no credentials (and records whether any came along).
 */
export interface TwilioRecordings extends RecordingHost {
  /** CallSid → [RecordingSid, bytes]. */
  byCall: Map<string, [string, Buffer]>
  /** Where the signed URLs point: another local server (another origin), no credentials. */
  signedOrigin: string
}

export async function startTwilioRecordings(
  accountSid: string,
  authToken: string,
): Promise<TwilioRecordings> {
  const auth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`
  const byCall = new Map<string, [string, Buffer]>()
  const files = new Map<string, Buffer>()
  const requests: RecordingHost['requests'] = []
  const account = `/2010-04-01/Accounts/${accountSid}`
  const signedServer = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    requests.push({ path, authorization: req.headers.authorization })
    const body = files.get(path)
    if (body) res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(body)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => signedServer.listen(0, '127.0.0.1', resolve))
  const signedOrigin = `http://127.0.0.1:${(signedServer.address() as AddressInfo).port}`
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    requests.push({ path: url.pathname, authorization: req.headers.authorization })
    if (req.headers.authorization !== auth) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":20003}')
      return
    }
    if (url.pathname === `${account}/Recordings.json`) {
      const found = byCall.get(url.searchParams.get('CallSid') ?? '')
      const recordings = found ? [{ sid: found[0], call_sid: url.searchParams.get('CallSid') }] : []
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ recordings }))
      return
    }
    const media = new RegExp(`^${account}/Recordings/(RE[0-9a-f]+)\\.mp3$`).exec(url.pathname)
    const entry = media ? [...byCall.values()].find(([sid]) => sid === media[1]) : undefined
    if (entry) {
      const path = `/signed/${entry[0]}.mp3`
      files.set(path, entry[1])
      res.writeHead(302, { location: `${signedOrigin}${path}` }).end()
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    files,
    requests,
    byCall,
    signedOrigin,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await new Promise<void>((resolve) => signedServer.close(() => resolve()))
    },
  }
}
