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
