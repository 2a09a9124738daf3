import { createHash, type Hash } from 'node:crypto'
import { createWriteStream, type WriteStream } from 'node:fs'
import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import { Zip, ZipDeflate } from 'fflate'

export interface EntrySummary {
  bytes: number
  sha256: string
}

export interface OpenEntry {
  write: (text: string) => void
  end: () => EntrySummary
}

const encoder = new TextEncoder()

/** Counts and hashes what passes, so the manifest can name each file's size and SHA-256. */
class Digest {
  private hash: Hash = createHash('sha256')
  bytes = 0
  add(data: Uint8Array): void {
    this.hash.update(data)
    this.bytes += data.byteLength
  }
  summary(): EntrySummary {
    return { bytes: this.bytes, sha256: this.hash.digest('hex') }
  }
}

/**
 * A zip written to a file as it is produced (fflate's streaming Zip): one entry open at a time,
 * each compressed as its text is pushed, so memory holds a page of rows, never the export.
 * Call drain() between pages to respect the file's back-pressure.
 */
export class ZipFileWriter {
  private readonly out: WriteStream
  private readonly zip: Zip
  private failure: Error | null = null

  constructor(path: string) {
    this.out = createWriteStream(path, { mode: 0o600 })
    this.out.on('error', (error) => {
      this.failure = error
    })
    this.zip = new Zip((error, chunk, final) => {
      if (error) {
        this.failure = error
        return
      }
      this.out.write(Buffer.from(chunk))
      if (final) this.out.end()
    })
  }

  entry(name: string): OpenEntry {
    this.check()
    const file = new ZipDeflate(name, { level: 6 })
    file.mtime = new Date()
    this.zip.add(file)
    const digest = new Digest()
    return {
      write: (text: string) => {
        const data = encoder.encode(text)
        digest.add(data)
        file.push(data)
      },
      end: () => {
        file.push(new Uint8Array(0), true)
        return digest.summary()
      },
    }
  }

  async drain(): Promise<void> {
    this.check()
    if (this.out.writableNeedDrain) await once(this.out, 'drain')
  }

  async finish(): Promise<void> {
    this.check()
    this.zip.end()
    await finished(this.out)
    this.check()
  }

  /** Stops writing (a failed export); the caller removes the file. */
  async abort(): Promise<void> {
    this.zip.terminate()
    this.out.destroy()
    await finished(this.out).catch(() => undefined)
  }

  private check(): void {
    if (this.failure) throw this.failure
  }
}

/** A plain file written as it is produced (the FHIR NDJSON), with its size and SHA-256. */
export class TextFileWriter {
  private readonly out: WriteStream
  private readonly digest = new Digest()
  private failure: Error | null = null

  constructor(path: string) {
    this.out = createWriteStream(path, { mode: 0o600 })
    this.out.on('error', (error) => {
      this.failure = error
    })
  }

  write(text: string): void {
    if (this.failure) throw this.failure
    const data = encoder.encode(text)
    this.digest.add(data)
    this.out.write(data)
  }

  async drain(): Promise<void> {
    if (this.failure) throw this.failure
    if (this.out.writableNeedDrain) await once(this.out, 'drain')
  }

  async finish(): Promise<EntrySummary> {
    this.out.end()
    await finished(this.out)
    if (this.failure) throw this.failure
    return this.digest.summary()
  }

  async abort(): Promise<void> {
    this.out.destroy()
    await finished(this.out).catch(() => undefined)
  }
}
