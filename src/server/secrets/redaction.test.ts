import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { expect, it } from 'vitest'
import { loggerOptions } from '../http/logging'

it('logs never carry a secret under the usual field names', async () => {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString())
      done()
    },
  })
  const app = Fastify({ logger: loggerOptions('info', stream) })
  await app.ready()
  app.log.info(
    {
      appSecret: 's1-hidden',
      accessToken: 's2-hidden',
      meta: { appSecret: 's3-hidden', pageAccessToken: 's4-hidden', verifyToken: 's5-hidden' },
      twilio: { authToken: 's6-hidden', token: 's7-hidden' },
      smtp: { smtpPassword: 's8-hidden' },
      keep: 'visible',
    },
    'integration settings',
  )
  await app.close()
  const text = lines.join('')
  expect(text).toContain('visible')
  expect(text).not.toMatch(/s\d-hidden/)
})
