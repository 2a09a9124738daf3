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
