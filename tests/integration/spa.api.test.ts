import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOCUMENT_ONLY_HEADERS } from '../../src/server/http/security-headers'
import { appPaths } from '../../src/shared/app-routes'
import { createTestApp, type TestApp } from '../support/test-app'

let t: TestApp
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arogya-spa-'))
  mkdirSync(join(dir, 'assets'))
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
  )
  writeFileSync(join(dir, 'assets', 'app-abc.js'), 'console.log(1)')
  writeFileSync(join(dir, 'assets', 'index-abc.css'), 'body{margin:0}')
  t = await createTestApp({ clientDir: dir })
})
afterAll(async () => {
  await t?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('serving the built client', () => {
  it('serves index.html with 200 for every page of the app', async () => {
    for (const url of [
      ...Object.values(appPaths).filter((p) => p !== '/' && p !== '/pricing' && p !== '/add-ons'),
      '/patients/',
      '/Patients',
      '/patients?search=meera',
      '/login?next=/patients',
    ]) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type']).toMatch(/text\/html/)
      expect(res.body).toContain('<div id="root">')
    }
  })

  it('serves the same index.html with 404 for paths the app has no page for (the client shows its 404 page)', async () => {
    for (const url of [
      '/no-such-page',
      '/definitely/not/here',
      '/patients/extra',
      '/leads/extra',
    ]) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.headers['content-type']).toMatch(/text\/html/)
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.body).toContain('<div id="root">')
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/no-such-page' })
    expect(head.statusCode).toBe(404)
  })

  it('serves hashed assets with a long cache, and a missing asset is a real 404, not HTML', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/assets/app-abc.js' })
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['cache-control']).toMatch(/immutable/)
    const missing = await t.app.inject({ method: 'GET', url: '/assets/old-chunk-123.js' })
    expect(missing.statusCode).toBe(404)
    expect(missing.headers['content-type']).not.toMatch(/text\/html/)
  })

  it('sends a document its security headers, and a hashed script or stylesheet only those that apply to it', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/patients' })
    for (const name of [...DOCUMENT_ONLY_HEADERS, 'permissions-policy'])
      expect(page.headers[name], name).toBeTruthy()
    for (const url of ['/assets/app-abc.js', '/assets/index-abc.css']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      for (const name of [...DOCUMENT_ONLY_HEADERS, 'permissions-policy'])
        expect(res.headers[name], `${url} ${name}`).toBeUndefined()
      expect(res.headers['x-content-type-options'], url).toBe('nosniff')
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin')
    }
    // Anything else under /assets (a 404 answer, say) keeps the full set.
    const missing = await t.app.inject({ method: 'GET', url: '/assets/old-chunk-123.js' })
    expect(missing.headers['x-frame-options']).toBeTruthy()
  })

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' })
  })
})
