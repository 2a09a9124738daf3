import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { outboundEnv } from '../env'
import { isPrivateAddress } from './ip-ranges'

/**
 * The one guard for hosts a hospital types (its SMTP server today; any future webhook target or
 * provider base URL): the name is resolved here, every address it resolves to must be public
 * (ip-ranges.ts), the port must be one the use allows, and the caller connects to the checked
 * address (pinned), never to the name again, so a DNS answer that changes between the check and
 * the connection (rebinding) cannot send it elsewhere. Call it before every connection.
 *
 * A refusal is an OutboundRefused whose reason is for tests and logs only: callers answer every
 * refusal, and every failure to connect, with one message, no sooner than `minRefusalMs` after
 * they began, so neither the words nor the timing tell an internal host from a missing one.
 *
 * The platform's own settings (SMTP_URL, the providers' base URLs in env) are the operator's and
 * do not pass through here.
 */

export type RefusalReason = 'invalid' | 'port' | 'dns' | 'private'

export class OutboundRefused extends Error {
  override name = 'OutboundRefused'
  constructor(readonly reason: RefusalReason) {
    super(`Outbound host refused (${reason})`)
  }
}

export interface OutboundPolicy {
  /** SMTP_ALLOW_PRIVATE_HOSTS: an on-premise install may reach its own network. */
  allowPrivateHosts: boolean
  /** A refusal (and a failed connection) answers no sooner than this after the check began. */
  minRefusalMs: number
  /** The longest a DNS look-up may take. */
  dnsTimeoutMs: number
  /** Every address of a name (tests stub it). */
  resolve: (host: string) => Promise<string[]>
}

/** The refusal's floor: above a DNS look-up of an internal name and a refused connection. */
export const MIN_REFUSAL_MS = 1_500
export const DNS_TIMEOUT_MS = 5_000

async function systemResolve(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true })
  return found.map((a) => a.address)
}

let fromEnv: Pick<OutboundPolicy, 'allowPrivateHosts'> | undefined
let override: Partial<OutboundPolicy> = {}

export function outboundPolicy(): OutboundPolicy {
  fromEnv ??= { allowPrivateHosts: outboundEnv().SMTP_ALLOW_PRIVATE_HOSTS }
  return {
    minRefusalMs: MIN_REFUSAL_MS,
    dnsTimeoutMs: DNS_TIMEOUT_MS,
    resolve: systemResolve,
    ...fromEnv,
    ...override,
  }
}

/** Tests: another policy until the returned function restores the previous one. */
export function setOutboundPolicy(policy: Partial<OutboundPolicy>): () => void {
  const previous = override
  override = { ...override, ...policy }
  return () => {
    override = previous
  }
}

export interface CheckedHost {
  /** The name as typed (TLS server name and certificate check). */
  host: string
  /** The address to connect to: checked, and the only one to use for this connection. */
  address: string
  /** True when the address is private (only with allowPrivateHosts). */
  private: boolean
}

/** Host names and IP literals only ([::1] loses its brackets); no ports, paths or spaces. */
function normalise(host: string): string {
  const trimmed = host.trim().replace(/\.$/, '')
  const bare = /^\[(.*)\]$/.exec(trimmed)?.[1] ?? trimmed
  if (isIP(bare)) return bare
  if (bare.length > 253 || !/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(bare)) {
    throw new OutboundRefused('invalid')
  }
  return bare.toLowerCase()
}

async function resolveAll(host: string, policy: OutboundPolicy): Promise<string[]> {
  if (isIP(host)) return [host]
  const timeout = new AbortController()
  try {
    const addresses = await Promise.race([
      policy.resolve(host),
      sleep(policy.dnsTimeoutMs, undefined, { signal: timeout.signal }).then(() => []),
    ])
    return addresses
  } catch {
    return []
  } finally {
    timeout.abort()
  }
}

/**
 * Resolves `host` and checks it for a connection to `port`: throws OutboundRefused for a port
 * not in `ports`, a name that does not resolve, or any resolved address that is private (unless
 * the policy allows private hosts). The refusal comes no sooner than the policy's minimum.
 */
export async function checkOutboundHost(
  host: string,
  port: number,
  options: { ports: readonly number[] },
): Promise<CheckedHost> {
  const policy = outboundPolicy()
  const started = Date.now()
  try {
    return await check(host, port, options.ports, policy)
  } catch (error) {
    await atLeast(started, policy.minRefusalMs)
    throw error
  }
}

async function check(
  typed: string,
  port: number,
  ports: readonly number[],
  policy: OutboundPolicy,
): Promise<CheckedHost> {
  const host = normalise(typed)
  if (!ports.includes(port)) throw new OutboundRefused('port')
  const addresses = await resolveAll(host, policy)
  const [first] = addresses
  if (!first) throw new OutboundRefused('dns')
  const isPrivate = addresses.some((a) => isPrivateAddress(a))
  if (isPrivate && !policy.allowPrivateHosts) throw new OutboundRefused('private')
  // With private hosts allowed, a name that mixes both still connects where it was checked.
  return { host, address: first, private: isPrivateAddress(first) }
}

/** Waits until `ms` have passed since `started` (a failure's answer time, equalised). */
export async function atLeast(started: number, ms: number, signal?: AbortSignal): Promise<void> {
  const left = started + ms - Date.now()
  if (left <= 0) return
  try {
    await sleep(left, undefined, signal ? { signal } : {})
  } catch {
    // Aborted: the caller's own signal decides what happens next.
  }
}
