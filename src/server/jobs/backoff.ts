/**
 * Delay before retry `attempt` (1 = after the first failure): exponential, capped, with
 * jitter (half fixed, half random), so that jobs failing together do not retry together.
 */
export function exponentialBackoff(
  options: { baseMs?: number; maxMs?: number; random?: () => number } = {},
): (attempt: number) => number {
  const { baseMs = 10_000, maxMs = 3_600_000, random = Math.random } = options
  return (attempt) => {
    const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1))
    return Math.round(ceiling / 2 + random() * (ceiling / 2))
  }
}

/**
 * A failure's message as stored in last_error: no stack, no credentials in URLs, no bearer or
 * access tokens, at most 1,000 characters. Handlers should still keep secrets out of messages.
 */
export function cleanError(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return message
    .replace(/(\w+:\/\/)[^/\s@]*@/g, '$1[redacted]@')
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    .replace(
      /\b(access_token|token|secret|password|api_key|apikey|key|signature)=[^&\s]+/gi,
      '$1=[redacted]',
    )
    .slice(0, 1000)
}
