import type { FastifyReply, FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import type { Auth } from './auth'

/** Hands a Fastify request to better-auth's web handler and copies its response back. */
export async function forwardToAuth(auth: Auth, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const url = new URL(req.url, `${req.protocol}://${req.host}`)
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined
  const request = new Request(url, {
    method: req.method,
    headers: fromNodeHeaders(req.headers),
    ...(hasBody ? { body: JSON.stringify(req.body) } : {}),
  })
  const response = await auth.handler(request)
  void reply.status(response.status)
  copyHeaders(response.headers, reply)
  const text = await response.text()
  void reply.send(text.length ? text : null)
}

export function copyHeaders(headers: Headers, reply: FastifyReply): void {
  headers.forEach((value, key) => {
    if (key === 'set-cookie') return
    if (key === 'content-length') return
    void reply.header(key, value)
  })
  const cookies = headers.getSetCookie()
  if (cookies.length) void reply.header('set-cookie', cookies)
}
