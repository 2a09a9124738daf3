import { mkdtempSync, rmSync } from 'node:fs'
import type { IncomingMessage, Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { S3Settings } from '../../../src/server/storage/storage-env'

interface S3rverInstance {
  run(): Promise<AddressInfo>
  close(): Promise<void>
  httpServer: Server
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance

/** s3rver (npm): a local S3-compatible server keeping objects in a temp folder. */
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass

/** s3rver's built-in account. */
export const FAKE_S3_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export interface RecordedS3Request {
  method: string
  url: string
  authorization: string
  contentSha256: string
}

export interface FakeS3 {
  settings: S3Settings
  /** Every request as it arrived (method, path?query, the SigV4 Authorization header). */
  requests: RecordedS3Request[]
  close(): Promise<void>
}

/** Starts s3rver on a free port with one bucket; path-style, as for MinIO. */
export async function startFakeS3(bucket = 'arogya-test'): Promise<FakeS3> {
  const directory = mkdtempSync(join(tmpdir(), 'arogya-s3-'))
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  })
  const address = await server.run()
  const requests: RecordedS3Request[] = []
  server.httpServer.prependListener('request', (req: IncomingMessage) => {
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: String(req.headers.authorization ?? ''),
      contentSha256: String(req.headers['x-amz-content-sha256'] ?? ''),
    })
  })
  return {
    settings: {
      bucket,
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'us-east-1',
      ...FAKE_S3_KEY,
      forcePathStyle: true,
      prefix: '',
    },
    requests,
    async close() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
