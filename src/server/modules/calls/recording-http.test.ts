import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { setOutboundPolicy } from '../../net/outbound-host'
import { openRecording, RecordingDownloadError } from './recording-http'

// The recording download (issue 41): only the operator's provider origins skip the outbound
// host guard; every other host must be HTTPS on 443 and public; redirects are checked each
// time, and the provider's credentials never follow a redirect to another host.

let server: Server
let origin: string
const seen: { path: string; authorization: string | undefined }[] = []
let restore: () => void = () => {}
afterEach(() => restore())

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization })
    if (req.url === '/file.mp3') res.writeHead(200, { 'content-type': 'audio/mpeg' }).end('ID3abc')
    else if (req.url === '/to-private')
      res.writeHead(302, { location: 'https://10.0.0.5/x.mp3' }).end()
    else if (req.url === '/to-self') res.writeHead(302, { location: '/file.mp3' }).end()
    else if (req.url === '/busy') res.writeHead(503).end()
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const open = (url: string, trusted: string[] = [origin]) =>
  openRecording({
    url,
    authorization: 'Basic c2VjcmV0',
    sendAuth: (u) => u.origin === origin,
    trustedOrigins: trusted,
    signal: new AbortController().signal,
  })

async function kind(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
    return 'ok'
  } catch (error) {
    if (error instanceof RecordingDownloadError) return error.kind
    throw error
  }
}

async function text(url: string): Promise<string> {
  const res = await open(url)
  let body = ''
  for await (const chunk of res) body += String(chunk)
  return body
}

describe('openRecording', () => {
  it('streams a trusted origin’s file with the credentials, following its redirects', async () => {
    seen.length = 0
    expect(await text(`${origin}/to-self`)).toBe('ID3abc')
    expect(seen.map((r) => r.authorization)).toEqual(['Basic c2VjcmV0', 'Basic c2VjcmV0'])
  })

  it('refuses an untrusted host that is not HTTPS on 443, or not public', async () => {
    restore = setOutboundPolicy({ minRefusalMs: 0, resolve: async () => ['10.0.0.5'] })
    expect(await kind(open(`${origin}/file.mp3`, []))).toBe('blocked')
    expect(await kind(open('https://recordings.example:8443/x.mp3', []))).toBe('blocked')
    expect(await kind(open('https://recordings.example/x.mp3', []))).toBe('blocked')
    expect(await kind(open('ftp://recordings.example/x.mp3', []))).toBe('blocked')
  })

  it('checks a redirect’s host too', async () => {
    restore = setOutboundPolicy({ minRefusalMs: 0 })
    expect(await kind(open(`${origin}/to-private`))).toBe('blocked')
  })

  it('tells a file not there yet and a busy provider from a refusal', async () => {
    expect(await kind(open(`${origin}/nothing.mp3`))).toBe('missing')
    expect(await kind(open(`${origin}/busy`))).toBe('busy')
  })
})
