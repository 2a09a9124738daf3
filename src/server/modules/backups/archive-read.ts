import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { Unzip, UnzipInflate } from 'fflate'
import type { BackupManifestSummary } from '../../../shared/schemas/backup'
import {
  BACKUP_FORMAT,
  type BackupManifest,
  migrationNumber,
  RESTORE_ORDER,
  schemaVersion,
} from './backup-archive'
import { BackupFileError, decryptStream } from './backup-crypto'

// Reading a backup archive (docs/decisions/039-backups.md): decrypt, unzip, authenticate.

export type ArchiveEvent =
  | { kind: 'start'; file: string }
  | { kind: 'line'; file: string; line: string }
  | { kind: 'end'; file: string; bytes: number; sha256: string }

/**
 * Streams the decrypted archive through fflate's Unzip, calling `onEvents` after each chunk
 * with what that chunk produced (entry starts, whole lines, entry ends with their SHA-256), so
 * that the consumer's awaits pace the reading. `want` picks the entries to inflate.
 */
export async function walkArchive(
  source: Readable,
  hospitalId: string,
  want: (file: string) => boolean,
  onEvents: (events: ArchiveEvent[]) => Promise<void>,
): Promise<void> {
  const decrypt = decryptStream(hospitalId)
  source.on('error', (error) => decrypt.destroy(error))
  source.pipe(decrypt)
  let events: ArchiveEvent[] = []
  let failure: Error | null = null
  const unzip = new Unzip((file) => {
    if (!want(file.name)) return
    const decoder = new TextDecoder('utf-8', { fatal: true })
    const hash = createHash('sha256')
    let bytes = 0
    let partial = ''
    events.push({ kind: 'start', file: file.name })
    file.ondata = (error, data, final) => {
      if (error) {
        failure ??= new BackupFileError('The backup archive is damaged; it cannot be restored.')
        return
      }
      try {
        hash.update(data)
        bytes += data.length
        const text = partial + decoder.decode(data, { stream: !final })
        const lines = text.split('\n')
        partial = lines.pop() ?? ''
        for (const line of lines) if (line) events.push({ kind: 'line', file: file.name, line })
        if (final) {
          if (partial) events.push({ kind: 'line', file: file.name, line: partial })
          events.push({ kind: 'end', file: file.name, bytes, sha256: hash.digest('hex') })
        }
      } catch {
        failure ??= new BackupFileError('The backup archive is damaged; it cannot be restored.')
      }
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  try {
    for await (const chunk of decrypt) {
      try {
        unzip.push(chunk as Uint8Array)
      } catch {
        throw new BackupFileError('The backup archive is damaged; it cannot be restored.')
      }
      if (failure) throw failure
      if (events.length) {
        const batch = events
        events = []
        await onEvents(batch)
      }
    }
    unzip.push(new Uint8Array(0), true)
    if (failure) throw failure
    if (events.length) await onEvents(events)
  } finally {
    source.destroy()
    decrypt.destroy()
  }
}

/**
 * Reads (and so authenticates, end to end) a backup file and returns its manifest. Every
 * refusal is a BackupFileError with a message for the admin.
 */
export async function readManifest(source: Readable, hospitalId: string): Promise<BackupManifest> {
  let text = ''
  await walkArchive(
    source,
    hospitalId,
    (f) => f === 'manifest.json',
    async (events) => {
      for (const e of events) if (e.kind === 'line') text += `${e.line}\n`
    },
  )
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(text) as BackupManifest
  } catch {
    throw new BackupFileError('The backup has no readable manifest; it cannot be restored.')
  }
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.tables)) {
    throw new BackupFileError('This backup was written in a format this version cannot read.')
  }
  if (manifest.hospital?.id?.toLowerCase() !== hospitalId.toLowerCase()) {
    throw new BackupFileError(
      'This backup belongs to another hospital; a backup can only be restored into the hospital it was taken from.',
    )
  }
  if (migrationNumber(manifest.schemaVersion) > migrationNumber(schemaVersion())) {
    throw new BackupFileError(
      'This backup was made by a newer version of Arogya CRM; upgrade before restoring it.',
    )
  }
  for (const t of manifest.tables) {
    if (!(RESTORE_ORDER as readonly string[]).includes(t.table)) {
      throw new BackupFileError(
        `The backup holds a table this version does not restore (${t.table}).`,
      )
    }
  }
  return manifest
}

export function manifestSummary(m: BackupManifest): BackupManifestSummary {
  return {
    format: m.format,
    schemaVersion: m.schemaVersion,
    hospitalId: m.hospital.id,
    hospitalName: m.hospital.name,
    dataTypes: m.dataTypes,
    createdAt: m.createdAt,
    recordCount: m.recordCount,
  }
}
