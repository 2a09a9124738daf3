import { describe, expect, it } from 'vitest'
// @ts-expect-error a plain .mjs script without types
import { applyMutant } from '../../scripts/mutation-verify.mjs'

// The hand check of Stryker's survivors writes each mutant into the file the way the report
// places it (mutation-testing-report-schema: lines and columns start at one).
describe('applyMutant', () => {
  const source = 'const a = 1\nif (!row) return\nexport { a }\n'

  it('replaces the located code with the replacement', () => {
    const mutant = {
      location: { start: { line: 2, column: 5 }, end: { line: 2, column: 9 } },
      replacement: 'true',
    }
    expect(applyMutant(source, mutant)).toBe('const a = 1\nif (true) return\nexport { a }\n')
  })

  it('spans lines, and handles the first column of the first line', () => {
    expect(
      applyMutant(source, {
        location: { start: { line: 1, column: 1 }, end: { line: 2, column: 17 } },
        replacement: '',
      }),
    ).toBe('\nexport { a }\n')
  })
})
