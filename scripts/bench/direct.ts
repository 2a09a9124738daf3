// The SQL a request ran, run again directly: `connections` pg clients, each repeating the
// request's tenant transaction (BEGIN, tenant setting, the reads, COMMIT) as the server sent
// it, for `seconds`. The gap to the HTTP figures is what HTTP, auth and JSON add.
import pg from 'pg'
import type { Statement } from './capture'
import { config } from './config'
import { type Load, summarise } from './load'

export async function runDirect(
  databaseUrl: string,
  transaction: Statement[],
  connections: number,
  seconds: number,
): Promise<Load> {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      return client
    }),
  )
  const latencies: number[] = []
  const once = async (client: pg.Client) => {
    const t0 = performance.now()
    for (const s of transaction) {
      await (s.params.length ? client.query(s.text, s.params) : client.query(s.text))
    }
    return performance.now() - t0
  }
  try {
    // Warmed up like the HTTP figures (BENCH_WARMUP s), latencies not kept.
    const warm = performance.now() + config.warmup * 1000
    await Promise.all(
      clients.map(async (c) => {
        while (performance.now() < warm) await once(c)
      }),
    )
    const until = performance.now() + seconds * 1000
    await Promise.all(
      clients.map(async (c) => {
        while (performance.now() < until) latencies.push(await once(c))
      }),
    )
  } finally {
    await Promise.all(clients.map((c) => c.end()))
  }
  return summarise(latencies, seconds, 0)
}

/** EXPLAIN (ANALYZE) of the transaction's first patients read, under its own tenant setting. */
export async function explain(databaseUrl: string, transaction: Statement[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const lines: string[] = []
    for (const s of transaction) {
      if (/^\s*(commit|rollback)/i.test(s.text)) break
      if (/from "patients"/i.test(s.text)) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) ${s.text}`,
          s.params,
        )
        lines.push(...rows.map((r) => r['QUERY PLAN']))
        break
      }
      await (s.params.length ? client.query(s.text, s.params) : client.query(s.text))
    }
    await client.query('rollback')
    return lines
  } finally {
    await client.end()
  }
}
