import { describe, expect, it } from 'vitest'
import { networkOf } from './booking-limits'

describe('networkOf (who a per-IP booking limit counts)', () => {
  it('counts an IPv4 address as itself, and an IPv4-mapped IPv6 address as that IPv4 address', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7')
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(networkOf('::ffff:cb00:7107')).toBe('203.0.113.7')
  })

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const net = '2001:db8:aa:bb::/64'
    for (const ip of [
      '2001:db8:aa:bb::1',
      '2001:0db8:00aa:00bb:ffff:ffff:ffff:ffff',
      '2001:DB8:AA:BB:1:2:3:4',
      '2001:db8:aa:bb:0:0:0:0',
      '2001:db8:aa:bb::1%eth0',
    ]) {
      expect(networkOf(ip), ip).toBe(net)
    }
    expect(networkOf('2001:db8:aa:bc::1')).toBe('2001:db8:aa:bc::/64')
    expect(networkOf('::1')).toBe('0:0:0:0::/64')
    expect(networkOf('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64')
    expect(networkOf('2001:db8::1.2.3.4')).toBe('2001:db8:0:0::/64')
  })

  it('leaves anything else as it is', () => {
    expect(networkOf('unknown')).toBe('unknown')
  })
})
