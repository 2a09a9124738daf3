// Prototype (bench only): the main thread's side of PGlite in a worker thread. It offers the
// part of PGlite's interface drizzle-orm/pglite uses (query, exec, transaction, close), each
// call a message to pglite-worker.ts.
import { Worker } from 'node:worker_threads'
import type { Notice, Reply, Request } from './pglite-worker'

type Pending = { resolve: (v: unknown) => void; reject: (e: unknown) => void }
type Options = { rowMode?: 'array' | 'object' }
// Request without its id, distributed over the union's members.
type Call = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never

export interface ProxyTx {
  query: (text: string, params?: unknown[], options?: Options) => Promise<unknown>
  exec: (text: string) => Promise<unknown>
}

export class WorkerPGlite {
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private readonly listeners = new Map<string, (payload: string) => void>()
  closed = false
  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: Reply | Notice) => {
      if ('notify' in m) return this.listeners.get(m.notify)?.(m.payload)
      const p = this.pending.get(m.id)
      if (!p) return
      this.pending.delete(m.id)
      if (m.ok) p.resolve(m.value)
      else p.reject(Object.assign(new Error(String(m.error.message)), m.error))
    })
  }

  static async open(dataDir: string): Promise<WorkerPGlite> {
    // A worker does not inherit tsx's loader: register it there before loading the TypeScript.
    const script = new URL('./pglite-worker.ts', import.meta.url).href
    const tsx = import.meta.resolve('tsx/esm/api')
    const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(script)}) })`
    const worker = new Worker(boot, { eval: true, workerData: { dataDir } })
    const proxy = new WorkerPGlite(worker)
    await new Promise<void>((resolve, reject) => {
      proxy.pending.set(0, { resolve: () => resolve(), reject })
      worker.once('error', reject)
    })
    return proxy
  }

  private call(message: Call): Promise<unknown> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.worker.postMessage({ ...message, id })
    })
  }

  query(text: string, params?: unknown[], options?: Options): Promise<unknown> {
    return this.call({ op: 'query', text, params, rowMode: options?.rowMode })
  }

  exec(text: string): Promise<unknown> {
    return this.call({ op: 'exec', text })
  }

  async transaction<T>(fn: (tx: ProxyTx) => Promise<T>): Promise<T> {
    const tx = (await this.call({ op: 'begin' })) as number
    const handle: ProxyTx = {
      query: (text, params, options) =>
        this.call({ op: 'query', tx, text, params, rowMode: options?.rowMode }),
      exec: (text) => this.call({ op: 'exec', tx, text }),
    }
    let result: T
    try {
      result = await fn(handle)
    } catch (error) {
      await this.call({ op: 'rollback', tx })
      throw error
    }
    await this.call({ op: 'commit', tx })
    return result
  }

  /** PGlite's listen(): notifications of this database, delivered in order with replies. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    this.listeners.set(channel, callback)
    await this.call({ op: 'listen', channel })
    return async () => {
      this.listeners.delete(channel)
      await this.call({ op: 'unlisten', channel })
    }
  }

  async close(): Promise<void> {
    this.closed = true
    await this.call({ op: 'close' })
    await this.worker.terminate()
  }
}
