import { type FakeHttp, type RecordedRequest, startHttpFake } from './http-fake'

/**
 * A fake Google Drive v3 (issue 29, backups): the resumable upload (POST
 * /upload/drive/v3/files?uploadType=resumable with a Bearer token and JSON metadata {name,
 * parents}, answered with a Location; then PUT of the bytes to it, answered with the file) and
 * DELETE /drive/v3/files/:id. A token other than `validToken` gets 401 like Drive's.
 */
export interface FakeDrive extends FakeHttp {
  /** Files uploaded: id → {name, parents, bytes}. */
  files: Map<string, { name: string; parents: string[]; bytes: number }>
  deleted: string[]
}

export async function startFakeDrive(validToken: string): Promise<FakeDrive> {
  const files: FakeDrive['files'] = new Map()
  const deleted: string[] = []
  const sessions = new Map<string, { name: string; parents: string[]; size: number }>()
  let base = ''
  let next = 1
  const unauthorized = {
    status: 401,
    body: { error: { code: 401, message: 'Request had invalid authentication credentials.' } },
  }
  const authorized = (r: RecordedRequest) => r.headers.authorization === `Bearer ${validToken}`
  const fake = await startHttpFake((r) => {
    const problems: string[] = []
    if (r.method === 'POST' && r.path === '/upload/drive/v3/files') {
      if (r.query.get('uploadType') !== 'resumable') problems.push('uploadType=resumable')
      if (!String(r.headers['content-type']).startsWith('application/json')) problems.push('json')
      let meta: { name?: unknown; parents?: unknown } = {}
      try {
        meta = JSON.parse(r.raw) as typeof meta
      } catch {
        problems.push('metadata is not JSON')
      }
      if (typeof meta.name !== 'string' || !meta.name) problems.push('name')
      if (meta.parents !== undefined && !Array.isArray(meta.parents)) problems.push('parents')
      if (problems.length) {
        r.refused = problems
        return { status: 400, body: { error: { code: 400, message: problems.join(', ') } } }
      }
      if (!authorized(r)) return unauthorized
      const id = `session-${next++}`
      sessions.set(id, {
        name: meta.name as string,
        parents: (meta.parents as string[] | undefined) ?? [],
        size: Number(r.headers['x-upload-content-length'] ?? -1),
      })
      return {
        status: 200,
        headers: { location: `${base}/upload/drive/v3/files?uploadType=resumable&upload_id=${id}` },
      }
    }
    if (r.method === 'PUT' && r.path === '/upload/drive/v3/files') {
      const session = sessions.get(r.query.get('upload_id') ?? '')
      if (!session) return { status: 404, body: { error: { code: 404, message: 'No session' } } }
      const bytes = Buffer.byteLength(r.raw, 'latin1')
      const length = Number(r.headers['content-length'])
      if (session.size >= 0 && length !== session.size) {
        r.refused = ['content-length differs from X-Upload-Content-Length']
        return { status: 400, body: { error: { code: 400, message: 'size' } } }
      }
      const id = `file-${next++}`
      files.set(id, { name: session.name, parents: session.parents, bytes: length || bytes })
      return { status: 200, body: { kind: 'drive#file', id, name: session.name } }
    }
    if (r.method === 'DELETE' && r.path.startsWith('/drive/v3/files/')) {
      if (!authorized(r)) return unauthorized
      const id = decodeURIComponent(r.path.slice('/drive/v3/files/'.length))
      if (!files.delete(id)) return { status: 404, body: { error: { code: 404 } } }
      deleted.push(id)
      return { status: 204 }
    }
    r.refused = ['unknown route']
    return { status: 404, body: { error: { code: 404, message: 'Not found' } } }
  })
  base = fake.url
  return Object.assign(fake, { files, deleted })
}
