// Prototype (bench only, not wired into the server): PGlite in a worker thread. The main
// thread sends queries and transaction steps as messages (pglite-proxy.ts), so the WASM
// database no longer runs on the thread that serves HTTP.
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, type Transaction, types } from '@electric-sql/pglite'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

export type Request =
  | {
      id: number
      op: 'query'
      tx?: number
      text: string
      params?: unknown[]
      rowMode?: 'array' | 'object'
    }
  | { id: number; op: 'exec'; tx?: number; text: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'listen' | 'unlisten'; channel: string }
  | { id: number; op: 'close' }

/** A NOTIFY heard in the worker; sent before the reply to the query that caused it. */
export type Notice = { notify: string; payload: string }
export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: Record<string, unknown> }

// drizzle-orm/pglite keeps dates, timestamps and intervals as text: the same parsers here.
const raw = (value: string) => value
const parsers = Object.fromEntries(
  [
    types.TIMESTAMP,
    types.TIMESTAMPTZ,
    types.INTERVAL,
    types.DATE,
    1231,
    1115,
    1185,
    1187,
    1182,
  ].map((t) => [t, raw]),
)

const port = parentPort!
const db = await PGlite.create({
  dataDir: (workerData as { dataDir: string }).dataDir,
  extensions: { pg_trgm, btree_gist, btree_gin },
})
const open = new Map<
  number,
  { tx: Transaction; end: (commit: boolean) => void; done: Promise<unknown> }
>()
let nextTx = 1
const listening = new Map<string, () => Promise<void>>()

function reply(message: Reply) {
  port.postMessage(message)
}

function fail(id: number, error: unknown) {
  const e = error as Record<string, unknown> & Error
  reply({ id, ok: false, error: { ...e, message: e.message, name: e.name } })
}

async function handle(m: Request): Promise<unknown> {
  switch (m.op) {
    case 'query': {
      const target = m.tx ? open.get(m.tx)!.tx : db
      const result = await target.query(m.text, m.params, { rowMode: m.rowMode, parsers })
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows }
    }
    case 'exec': {
      const target = m.tx ? open.get(m.tx)!.tx : db
      const results = await target.exec(m.text)
      return results.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }))
    }
    case 'begin': {
      const id = nextTx++
      // PGlite's transaction() holds its lock until the callback ends: the callback waits
      // for the main thread's commit or rollback.
      return new Promise((started, failed) => {
        const done = db.transaction(
          (tx) =>
            new Promise<void>((resolve, reject) => {
              open.set(id, {
                tx,
                end: (commit) => (commit ? resolve() : reject(new Error('rollback'))),
                done,
              })
              started(id)
            }),
        )
        done.catch((error: unknown) => {
          if (!open.has(id)) failed(error)
        })
      })
    }
    case 'commit':
    case 'rollback': {
      const entry = open.get(m.tx)!
      entry.end(m.op === 'commit')
      try {
        await entry.done
      } catch (error) {
        if (m.op === 'commit') throw error
      } finally {
        open.delete(m.tx)
      }
      return null
    }
    case 'listen':
      listening.set(
        m.channel,
        await db.listen(m.channel, (payload) =>
          port.postMessage({ notify: m.channel, payload } satisfies Notice),
        ),
      )
      return null
    case 'unlisten':
      await listening.get(m.channel)?.()
      listening.delete(m.channel)
      return null
    case 'close':
      await db.close()
      return null
  }
}

port.on('message', (m: Request) => {
  handle(m).then(
    (value) => reply({ id: m.id, ok: true, value }),
    (error: unknown) => fail(m.id, error),
  )
})
port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies Reply)
