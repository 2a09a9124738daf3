import { isIP } from 'node:net'

/**
 * Whether an address is on the public internet, for the outbound-host guard (outbound-host.ts).
 * Everything that is not a public unicast address is "private" here: loopback, RFC 1918,
 * CGNAT, link-local (169.254/16, with the cloud metadata service 169.254.169.254), the
 * unspecified address, multicast, broadcast, reserved and documentation ranges, and on IPv6
 * ::1, ::, unique-local fc00::/7, link-local fe80::/10, multicast and every form that carries
 * an IPv4 address (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16),
 * judged by the IPv4 address inside. IPv6 outside global unicast 2000::/3 is refused whole.
 */

/** [first address as a 32-bit number, prefix length] of the IPv4 blocks that are not public. */
const IPV4_BLOCKS: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 included
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, 169.254.169.254 (cloud metadata)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 included
]

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0)
}

const ipv4Blocks = IPV4_BLOCKS.map(([first, bits]) => {
  const size = 2 ** (32 - bits)
  const start = ipv4ToNumber(first)
  return { start, end: start + size - 1 }
})

function isPrivateIpv4Number(n: number): boolean {
  return ipv4Blocks.some((b) => n >= b.start && n <= b.end)
}

/** An IPv6 address as its 8 groups of 16 bits (a dotted IPv4 tail becomes two groups). */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase()
  const zone = text.indexOf('%')
  if (zone >= 0) text = text.slice(0, zone)
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted?.[1]) {
    const n = ipv4ToNumber(dotted[1])
    text = `${text.slice(0, -dotted[1].length)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : [])
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  const missing = 8 - left.length - right.length
  return [...left, ...Array<number>(Math.max(missing, 0)).fill(0), ...right]
}

function isPrivateIpv6(address: string): boolean {
  const g = ipv6Groups(address)
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
  const embedded = g6 * 65536 + g7
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0)
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated; :: and ::1 among them).
  if (zeroTo(5) && g5 === 0xffff) return isPrivateIpv4Number(embedded)
  if (zeroTo(6)) return true
  // NAT64 well-known prefix 64:ff9b::/96 carries an IPv4 address; 64:ff9b:1::/48 is local use.
  if (g0 === 0x64 && g1 === 0xff9b) {
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPrivateIpv4Number(embedded)
    return true
  }
  // 6to4: 2002:AABB:CCDD::/48 is the IPv4 address AA.BB.CC.DD's network.
  if (g0 === 0x2002) return isPrivateIpv4Number(g1 * 65536 + g2)
  // Teredo 2001::/32 (tunnels to an address it hides), documentation 2001:db8::/32.
  if (g0 === 0x2001 && (g1 === 0 || g1 === 0xdb8)) return true
  // Only global unicast 2000::/3 is public: fc00::/7, fe80::/10, ff00::/8, 100::/64 are not.
  return g0 < 0x2000 || g0 > 0x3fff
}

/** True for every address that is not a public unicast address (and for what is not an IP). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''))
  if (family === 4) return isPrivateIpv4Number(ipv4ToNumber(address))
  if (family === 6) return isPrivateIpv6(address)
  return true
}
