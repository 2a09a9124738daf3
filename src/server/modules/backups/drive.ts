import type { Readable } from 'node:stream'

/**
 * Google Drive v3 (docs/decisions/039-backups.md): a resumable upload (POST the metadata, then
 * PUT the bytes to the session URL it answers with) and a delete for retention. The base URL
 * is env GOOGLE_DRIVE_BASE_URL (tests point it at tests/support/fakes/google-drive.ts).
 */
export const driveBaseUrl = () =>
  (process.env.GOOGLE_DRIVE_BASE_URL ?? 'https://www.googleapis.com').replace(/\/+$/, '')

/** A Drive failure with a message for the hospital's admins (no token, no response body). */
export class DriveError extends Error {
  override name = 'DriveError'
}

const TIMEOUT_MS = 60_000

function refused(status: number, what: string): DriveError {
  if (status === 401) {
    return new DriveError(
      'Google Drive refused the access token (401). Update the configuration with a new token.',
    )
  }
  if (status === 403) {
    return new DriveError('Google Drive refused access to the folder (403). Check the folder ID.')
  }
  if (status === 404) return new DriveError('Google Drive did not find the folder (404).')
  return new DriveError(`Google Drive answered ${status} while ${what}.`)
}

export async function uploadToDrive(opts: {
  token: string
  folderId: string | null
  name: string
  size: number
  body: Readable
}): Promise<{ fileId: string }> {
  const metadata = {
    name: opts.name,
    mimeType: 'application/octet-stream',
    ...(opts.folderId ? { parents: [opts.folderId] } : {}),
  }
  let start: Response
  try {
    start = await fetch(`${driveBaseUrl()}/upload/drive/v3/files?uploadType=resumable`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${opts.token}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-type': 'application/octet-stream',
        'x-upload-content-length': String(opts.size),
      },
      body: JSON.stringify(metadata),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch {
    throw new DriveError('Google Drive could not be reached.')
  }
  await start.body?.cancel().catch(() => undefined)
  if (!start.ok) throw refused(start.status, 'starting the upload')
  const location = start.headers.get('location')
  if (!location) throw new DriveError('Google Drive did not answer with an upload URL.')
  let put: Response
  try {
    put = await fetch(location, {
      method: 'PUT',
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(opts.size),
      },
      body: opts.body as unknown as BodyInit,
      duplex: 'half',
      signal: AbortSignal.timeout(10 * TIMEOUT_MS),
    } as RequestInit)
  } catch {
    throw new DriveError('The upload to Google Drive was interrupted.')
  }
  if (!put.ok) {
    await put.body?.cancel().catch(() => undefined)
    throw refused(put.status, 'uploading the file')
  }
  const file = (await put.json().catch(() => null)) as { id?: unknown } | null
  if (!file || typeof file.id !== 'string') {
    throw new DriveError('Google Drive did not name the uploaded file.')
  }
  return { fileId: file.id }
}

/** Deletes a Drive file; a file already gone is fine. */
export async function deleteFromDrive(token: string, fileId: string): Promise<void> {
  let res: Response
  try {
    res = await fetch(`${driveBaseUrl()}/drive/v3/files/${encodeURIComponent(fileId)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch {
    throw new DriveError('Google Drive could not be reached.')
  }
  await res.body?.cancel().catch(() => undefined)
  if (!res.ok && res.status !== 404) throw refused(res.status, 'deleting an old backup')
}
