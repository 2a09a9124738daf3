/*
 * Backup display helpers (spec section 9: sizes are formatted in B, KB, MB, GB). No zod here:
 * the Backup screen imports this module directly.
 */

const UNITS = ['B', 'KB', 'MB', 'GB'] as const

/** 0 -> '0 B', 1536 -> '1.5 KB', 5_242_880 -> '5 MB'; anything past GB stays in GB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B'
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit += 1
  }
  if (unit === 0) return `${Math.round(value)} B`
  const rounded = Math.round(value * 10) / 10
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${UNITS[unit]}`
}
