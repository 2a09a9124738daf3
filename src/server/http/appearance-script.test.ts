import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { APPEARANCE_SCRIPT_SOURCE } from './appearance-script'

function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '')
}

const sourceOf = (script: string) =>
  `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`

describe('the appearance script in index.html', () => {
  it('is the one inline script, and the CSP hash is its hash', () => {
    const scripts = inlineScripts(readFileSync('src/client/index.html', 'utf8'))
    expect(scripts).toHaveLength(1)
    expect(sourceOf(scripts[0] ?? '')).toBe(APPEARANCE_SCRIPT_SOURCE)
  })

  it('survives the build unchanged (when a build newer than the source is present)', () => {
    const built = 'dist/client/index.html'
    const source = 'src/client/index.html'
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs) return
    const scripts = inlineScripts(readFileSync(built, 'utf8'))
    expect(scripts.map(sourceOf)).toEqual([APPEARANCE_SCRIPT_SOURCE])
  })
})
