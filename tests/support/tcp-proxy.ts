import { connect, createServer, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  port: number
  /** Drops every connection and stops listening: the upstream looks gone. */
  cut: () => Promise<void>
  /** Listens again on the same port. */
  restore: () => Promise<void>
  close: () => Promise<void>
}

/**
 * A TCP proxy on 127.0.0.1 in front of upstream (host:port), to make a server "go away" and
 * come back without touching the real one (tests put it between PgBouncer and PostgreSQL).
 */
export async function startTcpProxy(
  upstreamPort: number,
  upstreamHost = '127.0.0.1',
): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(upstreamPort, upstreamHost)
        for (const [a, b] of [
          [client, upstream],
          [upstream, client],
        ] as const) {
          sockets.add(a)
          a.pipe(b)
          a.on('error', () => b.destroy())
          a.on('close', () => {
            b.destroy()
            sockets.delete(a)
          })
        }
      })
      s.once('error', reject)
      s.listen(port, '127.0.0.1', () => {
        const address = s.address()
        if (typeof address === 'object' && address) port = address.port
        server = s
        resolve()
      })
    })
  const cut = async () => {
    const s = server
    server = undefined
    for (const socket of sockets) socket.destroy()
    sockets.clear()
    if (s) await new Promise((resolve) => s.close(resolve))
  }
  await listen()
  return { port, cut, restore: listen, close: cut }
}
