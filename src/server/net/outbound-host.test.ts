import { afterEach, describe, expect, it } from 'vitest'
import { outboundEnv } from '../env'
import { checkOutboundHost, OutboundRefused, setOutboundPolicy } from './outbound-host'

const MAIL = { ports: [25, 465, 587, 2525] }
let restore: () => void = () => {}
afterEach(() => restore())

/** A resolver that knows a few names, as DNS would answer them. */
const names: Record<string, string[]> = {
  'smtp.clinic.example': ['203.0.114.10'],
  'rebind.example': ['93.184.216.34', '127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
  'v6only.example': ['2a00:1450:4001:82a::200e'],
}
const stub = async (host: string) => {
  const found = names[host]
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
  return found
}

async function reason(host: string, port = 587): Promise<string> {
  try {
    await checkOutboundHost(host, port, MAIL)
    return 'allowed'
  } catch (error) {
    if (error instanceof OutboundRefused) return error.reason
    throw error
  }
}

describe('checkOutboundHost', () => {
  it('refuses loopback, private, link-local, unique-local and mapped addresses, and names resolving to them', async () => {
    restore = setOutboundPolicy({ minRefusalMs: 0, resolve: stub, allowPrivateHosts: false })
    for (const host of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      'fd00::1',
      '0.0.0.0',
      'metadata.example',
      // One private address among public ones is enough to refuse.
      'rebind.example',
    ]) {
      expect(await reason(host), host).toBe('private')
    }
  })

  it('resolves with the system resolver too: localhost is loopback', async () => {
    restore = setOutboundPolicy({ minRefusalMs: 0, allowPrivateHosts: false })
    expect(await reason('localhost')).toBe('private')
  })

  it('answers a public name with its checked address, to connect to that address only', async () => {
    restore = setOutboundPolicy({ minRefusalMs: 0, resolve: stub, allowPrivateHosts: false })
    await expect(checkOutboundHost('SMTP.Clinic.Example.', 465, MAIL)).resolves.toEqual({
      host: 'smtp.clinic.example',
      address: '203.0.114.10',
      private: false,
    })
    await expect(checkOutboundHost('v6only.example', 587, MAIL)).resolves.toMatchObject({
      address: '2a00:1450:4001:82a::200e',
    })
    await expect(checkOutboundHost('1.1.1.1', 25, MAIL)).resolves.toMatchObject({
      host: '1.1.1.1',
      address: '1.1.1.1',
    })
  })

  it('refuses ports outside the list, unknown names and malformed hosts', async () => {
    restore = setOutboundPolicy({ minRefusalMs: 0, resolve: stub, allowPrivateHosts: false })
    expect(await reason('smtp.clinic.example', 6379)).toBe('port')
    expect(await reason('smtp.clinic.example', 22)).toBe('port')
    expect(await reason('nowhere.example')).toBe('dns')
    for (const host of ['', 'smtp.clinic.example:25', 'a b', 'http://x', '-x.example', '[::1']) {
      expect(await reason(host), host).toBe('invalid')
    }
  })

  it('a DNS answer that never comes is a refusal after the DNS limit', async () => {
    restore = setOutboundPolicy({
      minRefusalMs: 0,
      dnsTimeoutMs: 50,
      resolve: () => new Promise<string[]>(() => {}),
    })
    expect(await reason('slow.example')).toBe('dns')
  })

  it('every refusal answers no sooner than the minimum, whatever refused it', async () => {
    restore = setOutboundPolicy({ minRefusalMs: 250, resolve: stub, allowPrivateHosts: false })
    for (const host of ['127.0.0.1', 'nowhere.example', 'metadata.example', 'a b']) {
      const started = Date.now()
      await expect(checkOutboundHost(host, 587, MAIL)).rejects.toBeInstanceOf(OutboundRefused)
      expect(Date.now() - started, host).toBeGreaterThanOrEqual(245)
    }
  })

  it('SMTP_ALLOW_PRIVATE_HOSTS opens private addresses, never other ports', async () => {
    restore = setOutboundPolicy({ minRefusalMs: 0, resolve: stub, allowPrivateHosts: true })
    await expect(checkOutboundHost('10.0.0.1', 25, MAIL)).resolves.toEqual({
      host: '10.0.0.1',
      address: '10.0.0.1',
      private: true,
    })
    expect(await reason('127.0.0.1', 6379)).toBe('port')
  })
})

describe('SMTP_ALLOW_PRIVATE_HOSTS', () => {
  it('is off unless set, and refuses a value that is not a boolean', () => {
    expect(outboundEnv({}).SMTP_ALLOW_PRIVATE_HOSTS).toBe(false)
    expect(outboundEnv({ SMTP_ALLOW_PRIVATE_HOSTS: '' }).SMTP_ALLOW_PRIVATE_HOSTS).toBe(false)
    expect(outboundEnv({ SMTP_ALLOW_PRIVATE_HOSTS: 'true' }).SMTP_ALLOW_PRIVATE_HOSTS).toBe(true)
    expect(() => outboundEnv({ SMTP_ALLOW_PRIVATE_HOSTS: 'maybe' })).toThrow()
  })
})
