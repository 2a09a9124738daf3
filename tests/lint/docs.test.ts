/*
 * The README and docs/ (docs/decisions/ excepted: decision records are history) must name only
 * things that exist, and every setting the server reads must be documented.
 *
 * The rules, each checked below:
 * - Environment variables: every UPPER_SNAKE name (two or more parts, such as `DATABASE_URL`)
 *   inside inline code or a fenced code block must occur in the code (src/, scripts/, tests/,
 *   .ci/, the config files): an env var, an error code or a constant the server really has.
 * - npm scripts: every `npm run <name>` must be a script in package.json.
 * - Links: every relative link points at a file that exists.
 * - API routes: every `/api/...` path must match a route the server registers (a static scan of
 *   src/server for route strings, plus better-auth's allowlisted endpoints). In the docs a
 *   placeholder segment is written `:id`, `<hospital id>`, `{id}` or `…`.
 * - Every variable src/server/env.ts reads (and every other `process.env.X` in src/server) is
 *   named in backticks in docs/operations/configuration.md, and every permission has its row in
 *   the permission table of docs/security.md.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { authEndpoints, AUTH_BASE } from '../../src/server/auth/endpoints'
import { demoLogins } from '../../src/server/db/seed/demo'
import { loadEnv } from '../../src/server/env'
import { permissions } from '../../src/shared/permissions'

const root = join(import.meta.dirname, '..', '..')

function walk(dir: string, keep: (path: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(dir)) return out
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.e2e')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) walk(path, keep, out)
    else if (keep(path)) out.push(path)
  }
  return out
}

const rel = (path: string) => relative(root, path)

/** README.md and docs/**\/*.md, without docs/decisions/. */
export function docFiles(): string[] {
  const docs = walk(join(root, 'docs'), (p) => p.endsWith('.md')).filter(
    (p) => !rel(p).startsWith(join('docs', 'decisions')),
  )
  return [join(root, 'README.md'), ...docs]
}

/** Inline code spans and fenced code blocks of a markdown text. */
export function codeParts(markdown: string): string[] {
  const parts: string[] = []
  const withoutFences = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_m, body: string) => {
    parts.push(body)
    return ''
  })
  for (const m of withoutFences.matchAll(/(`+)([^`]+?)\1/g)) parts.push(m[2] ?? '')
  return parts
}

const UPPER_SNAKE = /(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![a-z0-9])/g

export function envLikeNames(markdown: string): string[] {
  return [...new Set(codeParts(markdown).flatMap((code) => code.match(UPPER_SNAKE) ?? []))]
}

export function npmScripts(markdown: string): string[] {
  const names = [...markdown.matchAll(/npm run ([\w:.-]+)/g)].map((m) =>
    (m[1] ?? '').replace(/[.:]+$/, ''),
  )
  return [...new Set(names)]
}

/** `/api/...` paths named in a text, placeholders turned into `:p`, the query string dropped. */
export function apiPaths(markdown: string): string[] {
  const text = markdown.replace(/<[^>\n]*>/g, ':p').replace(/\{[^}\n]*\}/g, ':p')
  const paths = [...text.matchAll(/\/api\/[^\s`'"()[\],;|]*/g)].map((m) =>
    (m[0].split('?')[0] ?? '').replace(/[.:]+$/, '').replace(/\/+$/, ''),
  )
  return [...new Set(paths.filter((p) => p.length > '/api/'.length))]
}

function sourceTexts(): string {
  const code = (p: string) => /\.(ts|tsx|mts|mjs|js|cjs|sh|yml|yaml|json)$/.test(p)
  const files = [
    ...['src', 'scripts', 'tests', 'stryker', 'eslint-rules', '.ci'].flatMap((d) =>
      walk(join(root, d), code),
    ),
    ...readdirSync(root)
      .filter((f) => /\.(ts|mjs|js|json)$/.test(f) && statSync(join(root, f)).isFile())
      .map((f) => join(root, f)),
    ...(existsSync(join(root, '.ci')) ? walk(join(root, '.ci'), () => true) : []),
  ]
  return files.map((f) => readFileSync(f, 'utf8')).join('\n')
}

/** Route strings of src/server (tests excepted) and better-auth's allowlisted endpoints. */
export function serverRoutes(): string[] {
  const files = walk(
    join(root, 'src', 'server'),
    (p) => p.endsWith('.ts') && !p.endsWith('.test.ts'),
  )
  const routes = new Set<string>(authEndpoints.map((e) => `${AUTH_BASE}${e.path}`))
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/['"`](\/api\/[^'"`\s?]*)/g)) {
      routes.add((m[1] ?? '').replace(/\$\{[^}]*\}/g, ':p').replace(/\/+$/, ''))
    }
  }
  return [...routes]
}

const isPlaceholder = (segment: string) =>
  segment.startsWith(':') || segment === '…' || segment === '...' || segment === '*'

export function routeExists(path: string, routes: readonly string[]): boolean {
  const want = path.split('/')
  // `/api/admin/*` in the docs: some route under /api/admin.
  if (want.at(-1) === '*') {
    const prefix = `${want.slice(0, -1).join('/')}/`
    return routes.some((route) => route.startsWith(prefix))
  }
  return routes.some((route) => {
    const have = route.split('/')
    if (have.at(-1) === '*') {
      if (want.length < have.length - 1) return false
    } else if (have.length !== want.length) return false
    return have.every((segment, i) => {
      if (segment === '*') return true
      const w = want[i] ?? ''
      return segment === w || segment.startsWith(':') || isPlaceholder(w)
    })
  })
}

/** Every variable loadEnv reads, seen through a recording source, and src/server's process.env reads. */
export function envVariablesRead(): string[] {
  const read = new Set<string>()
  const source = new Proxy({} as Record<string, string | undefined>, {
    get(_t, key) {
      if (typeof key === 'string') read.add(key)
      return undefined
    },
  })
  loadEnv(source)
  const files = walk(
    join(root, 'src', 'server'),
    (p) => p.endsWith('.ts') && !p.endsWith('.test.ts'),
  )
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) read.add(m[1] ?? '')
  }
  return [...read].sort()
}

describe('docs name only what exists', () => {
  const docs = docFiles().map((path) => ({ path: rel(path), text: readFileSync(path, 'utf8') }))
  const scripts = Object.keys(
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: object }).scripts,
  )

  it('finds the README and the docs', () => {
    expect(docs.length).toBeGreaterThan(1)
  })

  it('every UPPER_SNAKE name in code (an env var, an error code) exists in the code', () => {
    const source = sourceTexts()
    const known = new Set(source.match(UPPER_SNAKE) ?? [])
    const missing = docs.flatMap((d) =>
      envLikeNames(d.text)
        .filter((name) => !known.has(name))
        .map((name) => `${d.path}: ${name}`),
    )
    expect(missing).toEqual([])
  })

  it('every `npm run x` is a script of package.json', () => {
    const missing = docs.flatMap((d) =>
      npmScripts(d.text)
        .filter((name) => !scripts.includes(name))
        .map((name) => `${d.path}: npm run ${name}`),
    )
    expect(missing).toEqual([])
  })

  it('every /api/... path matches a route the server registers', () => {
    const routes = serverRoutes()
    expect(routes.length).toBeGreaterThan(100)
    const missing = docs.flatMap((d) =>
      apiPaths(d.text)
        .filter((path) => !routeExists(path, routes))
        .map((path) => `${d.path}: ${path}`),
    )
    expect(missing).toEqual([])
  })

  it('every relative link points at a file that exists', () => {
    const broken = docs.flatMap((d) =>
      [...d.text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1] ?? '')
        .filter((target) => !/^(https?:|mailto:|#)/.test(target))
        .filter((target) => !existsSync(join(root, dirname(d.path), target.split('#')[0] ?? '')))
        .map((target) => `${d.path}: ${target}`),
    )
    expect(broken).toEqual([])
  })

  it('the README lists every demo log-in, and no other', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const listed = [...readme.matchAll(/`([\w.-]+@[\w-]+\.demo)`/g)].map((m) => m[1])
    expect([...new Set(listed)].sort()).toEqual([...demoLogins()].sort())
  })

  it('every permission of src/shared/permissions.ts is in the table of docs/security.md', () => {
    const text = readFileSync(join(root, 'docs', 'security.md'), 'utf8')
    expect(permissions.filter((p) => !text.includes(`| \`${p}\``))).toEqual([])
  })

  it('every variable the server reads is documented in docs/operations/configuration.md', () => {
    const file = join(root, 'docs', 'operations', 'configuration.md')
    const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
    const undocumented = envVariablesRead().filter((name) => !text.includes(`\`${name}\``))
    expect(undocumented).toEqual([])
  })
})

describe('the rules themselves', () => {
  it('reads names from code only, and placeholders in routes', () => {
    expect(
      envLikeNames('Set `DATABASE_URL`. NOT_CODE here.\n```sh\nFOO_BAR=1 npm start\n```'),
    ).toEqual(['FOO_BAR', 'DATABASE_URL'])
    expect(npmScripts('run `npm run bench` or npm run docs:screenshots.')).toEqual([
      'bench',
      'docs:screenshots',
    ])
    expect(apiPaths('`/api/webhooks/twilio/<hospital id>/status`, /api/leads?status=new.')).toEqual(
      ['/api/webhooks/twilio/:p/status', '/api/leads'],
    )
    const routes = ['/api/leads', '/api/leads/:id', '/api/auth/*']
    expect(routeExists('/api/leads/:p', routes)).toBe(true)
    expect(routeExists('/api/leads/123', routes)).toBe(true)
    expect(routeExists('/api/auth/two-factor/enable', routes)).toBe(true)
    expect(routeExists('/api/leads/*', routes)).toBe(true)
    expect(routeExists('/api/lead', routes)).toBe(false)
    expect(routeExists('/api/leads/1/calls', routes)).toBe(false)
  })

  it('records every variable env.ts reads', () => {
    const read = envVariablesRead()
    expect(read).toContain('DATABASE_URL')
    expect(read).toContain('S3_BUCKET')
    expect(read).toContain('BETTER_AUTH_URL')
  })
})
