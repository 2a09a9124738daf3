/**
 * What the server says at start about where it listens (issue 40 item 18). It binds 127.0.0.1
 * unless HOST is set: the demo's log-ins and their password are published, so by default no
 * other machine can reach them.
 */
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.')
}

/** The lines printed once the server listens. */
export function listenLines(host: string, port: number): string[] {
  if (isLoopback(host)) {
    return [
      `Arogya CRM is running at http://localhost:${port}`,
      `Listening on ${host} only: other machines cannot connect. Set HOST=0.0.0.0 (or an address of this machine) to accept them.`,
    ]
  }
  const shown =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return [
    `Arogya CRM is running at http://${shown}:${port}`,
    `Listening on ${host} (HOST): other machines can connect; change the demo passwords before exposing it.`,
  ]
}
