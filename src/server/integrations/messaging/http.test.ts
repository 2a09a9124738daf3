import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { httpCall, retryAfterMs, USER_AGENT } from './http'

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-25T10:00:00Z')
  it('reads delta-seconds and HTTP dates; ignores past, absent and garbage values', () => {
    expect(retryAfterMs('120', now)).toBe(120_000)
    expect(retryAfterMs('Wed, 25 Nov 2026 10:00:30 GMT', now)).toBe(30_000)
    expect(retryAfterMs('Wed, 25 Nov 2026 09:00:00 GMT', now)).toBeUndefined()
    expect(retryAfterMs(null, now)).toBeUndefined()
    expect(retryAfterMs('soon', now)).toBeUndefined()
  })
})

describe('httpCall', () => {
  it('answers status, headers and parsed JSON, with our User-Agent', async () => {
    let agent = ''
    const server = createServer((req, res) => {
      agent = req.headers['user-agent'] ?? ''
      res.writeHead(201, { 'content-type': 'application/json', 'x-id': 'abc' }).end('{"a":1}')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    const answer = await httpCall(url, { method: 'GET', headers: {} }, new AbortController().signal)
    await new Promise<void>((r) => server.close(() => r()))
    if ('unreachable' in answer) throw new Error('unreachable')
    expect(answer.status).toBe(201)
    expect(answer.json).toEqual({ a: 1 })
    expect(answer.headers.get('x-id')).toBe('abc')
    expect(agent).toBe(USER_AGENT)
  })

  it('a connection dropped mid-request is ambiguous: it rejects', async () => {
    const server = createServer((req) => req.socket.destroy())
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    await expect(
      httpCall(url, { method: 'POST', headers: {}, body: 'x' }, new AbortController().signal),
    ).rejects.toThrow()
    await new Promise<void>((r) => server.close(() => r()))
  })

  it('an already aborted signal never calls out', async () => {
    const ac = new AbortController()
    ac.abort(new Error('stop'))
    await expect(
      httpCall('http://127.0.0.1:1/', { method: 'GET', headers: {} }, ac.signal),
    ).rejects.toThrow('stop')
  })
})
