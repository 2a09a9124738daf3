// PGlite on the event-loop thread (today) against PGlite in a worker thread (prototype:
// pglite-proxy.ts, pglite-worker.ts), the same app and data, under the same load.
import { config, PAGE } from './config'
import { matches, type Measured, measure, type Scenario, signInAll } from './measure'
import { type Server, startServer } from './server'

export interface LoopDelay {
  p50: number
  p99: number
  max: number
}

export interface WorkerResult {
  rows: { mode: 'inline' | 'worker'; key: string; result: Measured; loop: LoopDelay }[]
}

async function loopDelay(server: Server): Promise<LoopDelay> {
  return new Promise((resolve) => {
    server.child.once('message', (m) => resolve(m as LoopDelay))
    server.child.send('loop')
  })
}

export async function benchWorker(
  dataDir: string,
  list: Scenario[],
  log: (line: string) => void,
): Promise<WorkerResult> {
  const rows: WorkerResult['rows'] = []
  const harness = new URL('./pglite-app.ts', import.meta.url).pathname
  for (const mode of ['inline', 'worker'] as const) {
    const server = await startServer({
      dataDir,
      command: (port) => ['--import', 'tsx', harness, mode, dataDir, String(port), config.target],
    })
    try {
      const cookie = await signInAll([server])
      for (const s of list.slice(0, 2)) {
        await matches(server, cookie, s.path)
        await loopDelay(server)
        const result = await measure({ servers: [server], cookie, path: s.path })
        const loop = await loopDelay(server)
        rows.push({ mode, key: s.key, result, loop })
        log(
          `  PGlite ${mode}, ${s.label} (page ${PAGE}, ${config.connections} conn): ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, event-loop delay p99 ${loop.p99.toFixed(1)} ms`,
        )
      }
    } finally {
      await server.stop()
    }
  }
  return { rows }
}
