import { AppError } from '../http/app-error'

/** A key the drivers accept: `/`-separated parts as tenantKey makes them (and a few more). */
const KEY =
  /^(?:[a-z0-9](?:[a-z0-9._-]{0,98}[a-z0-9])?\/){0,8}[a-z0-9](?:[a-z0-9._-]{0,98}[a-z0-9])?$/

/** Throws unless key is a safe relative path: no `..`, no leading `/`, no odd characters. */
export function assertKey(key: string): void {
  if (!KEY.test(key) || key.includes('..')) {
    throw new AppError('INTERNAL', 'Invalid storage key')
  }
}

export const tooLarge = (maxBytes: number) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${formatBytes(maxBytes)}; choose a smaller file`,
  )

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MB`
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} bytes`
}

export const objectMissing = () => new AppError('NOT_FOUND', 'File not found')
