import type { S3Client } from '@aws-sdk/client-s3'
import type { Readable } from 'node:stream'
import { feed } from './feed'
import { createMeter } from './meter'
import { assertKey, objectMissing, tooLarge } from './object-key'
import type { ObjectStorage } from './storage'
import type { S3Settings } from './storage-env'

/** Multipart part size (S3's minimum) and parts in flight: at most ~15 MB of an upload in memory. */
export const S3_PART_BYTES = 5 * 1024 * 1024
export const S3_QUEUE_SIZE = 2

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } }
  return e.name === 'NoSuchKey' || e.Code === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404
}

/**
 * An S3-compatible bucket (AWS, MinIO, R2…) through the AWS SDK v3: uploads stream as
 * multipart in 5 MB parts (lib-storage), so a large file is never held whole; a refused or
 * failed upload is aborted and its object deleted. Checksums only when the service requires
 * them, which S3-compatible servers without the newer CRC trailers also accept. The SDK is
 * imported here, on first use (a dynamic import stays lazy in the server bundle).
 */
export async function createS3Storage(
  settings: S3Settings,
  client?: S3Client,
): Promise<ObjectStorage> {
  const { DeleteObjectCommand, GetObjectCommand, S3Client } = await import('@aws-sdk/client-s3')
  const { Upload } = await import('@aws-sdk/lib-storage')
  const s3 =
    client ??
    new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId && settings.secretAccessKey
        ? {
            credentials: {
              accessKeyId: settings.accessKeyId,
              secretAccessKey: settings.secretAccessKey,
            },
          }
        : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    })
  const Bucket = settings.bucket
  const keyOf = (key: string) => {
    assertKey(key)
    return `${settings.prefix}${key}`
  }
  const remove = async (Key: string) => {
    try {
      await s3.send(new DeleteObjectCommand({ Bucket, Key }))
    } catch (error) {
      if (!isMissing(error)) throw error
    }
  }

  return {
    async put(key, body, { maxBytes, contentType }) {
      const Key = keyOf(key)
      const meter = createMeter(maxBytes)
      const upload = new Upload({
        client: s3,
        params: { Bucket, Key, Body: meter, ContentType: contentType },
        partSize: S3_PART_BYTES,
        queueSize: S3_QUEUE_SIZE,
        leavePartsOnError: false,
      })
      let firstError: unknown
      meter.on('error', (error) => {
        firstError ??= error
      })
      const detach = feed(body, meter)
      try {
        await upload.done()
        return { size: meter.bytes(), sha256: meter.sha256() }
      } catch (error) {
        await upload.abort().catch(() => undefined)
        await remove(Key).catch(() => undefined)
        if (meter.overLimit()) throw tooLarge(maxBytes)
        throw firstError ?? error
      } finally {
        detach()
      }
    },

    async get(key) {
      try {
        const out = await s3.send(new GetObjectCommand({ Bucket, Key: keyOf(key) }))
        if (!out.Body) throw objectMissing()
        return out.Body as Readable
      } catch (error) {
        if (isMissing(error)) throw objectMissing()
        throw error
      }
    },

    async delete(key) {
      await remove(keyOf(key))
    },
  }
}
