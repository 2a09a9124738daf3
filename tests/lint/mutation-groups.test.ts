import { existsSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error a plain .mjs module without types
import { servicesParts } from '../../stryker/groups.mjs'

type Part = { mutate: string[]; testFiles: string[] }
const parts = servicesParts as Record<string, Part>

// The services group is measured in parts (stryker/groups.mjs); a module whose services no part
// mutates would never be measured, so a new module must join a part.
describe('the parts of the services mutation group', () => {
  const modules = readdirSync('src/server/modules').filter((dir) =>
    readdirSync(`src/server/modules/${dir}`).some((f) => f.endsWith('.service.ts')),
  )

  it('mutate whole modules, one glob per module folder', () => {
    for (const part of Object.values(parts))
      for (const glob of part.mutate)
        expect(glob).toMatch(/^src\/server\/modules\/[\w-]+\/\*\.service\.ts$/)
  })

  it('take every module with a service into exactly one part', () => {
    const owners = new Map<string, string[]>()
    for (const [name, part] of Object.entries(parts))
      for (const glob of part.mutate) {
        const dir = glob.split('/')[3] ?? glob
        owners.set(dir, [...(owners.get(dir) ?? []), name])
      }
    const unowned = modules.filter((dir) => !owners.has(dir))
    const twice = [...owners].filter(([, names]) => names.length > 1).map(([dir]) => dir)
    expect({ unowned, twice }).toEqual({ unowned: [], twice: [] })
  })

  it('run only test files that exist', () => {
    const missing = Object.values(parts)
      .flatMap((part) => part.testFiles)
      .filter((file) => !existsSync(file))
    expect(missing).toEqual([])
  })
})
