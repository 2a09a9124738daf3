// HTTP load with autocannon. Every response's latency is kept, so runs against several
// servers at once (load split between instances) give exact combined percentiles.
import autocannon from 'autocannon'

export interface Load {
  requests: number
  rps: number
  p50: number
  p99: number
  /** Mean response body bytes as sent (compressed when asked for). */
  bytes: number
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

export function summarise(latencies: number[], seconds: number, bytes: number): Load {
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bytes: latencies.length ? bytes / latencies.length : 0,
  }
}

interface Target {
  url: string
  connections: number
}

/** A browser's Accept-Encoding: the server answers a page of patients with brotli. */
export const BROWSER_ENCODING = 'gzip, deflate, br, zstd'

async function run(
  target: Target,
  headers: Record<string, string>,
  seconds: number,
  latencies: number[],
): Promise<number> {
  let bytes = 0
  const options = { url: target.url, connections: target.connections, duration: seconds, headers }
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)))
    // run.js emits (client, statusCode, resBytes, responseTime); the typings drop the client.
    instance.on('response', ((...args: unknown[]) => {
      const [status, resBytes, time] = args.slice(-3) as [number, number, number]
      if (status >= 200 && status < 300) {
        latencies.push(time)
        bytes += resBytes
      }
    }) as never)
  })
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `bench: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts on ${target.url}`,
    )
  }
  return bytes
}

/** Loads every target at once for `seconds`; latencies of all of them together. */
export async function load(
  targets: Target[],
  cookie: string,
  seconds: number,
  encoding = BROWSER_ENCODING,
): Promise<Load> {
  const latencies: number[] = []
  const headers = { cookie, 'accept-encoding': encoding }
  const bytes = await Promise.all(targets.map((t) => run(t, headers, seconds, latencies)))
  return summarise(
    latencies,
    seconds,
    bytes.reduce((a, b) => a + b, 0),
  )
}
