import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

interface Journal {
  entries: { idx: number; when: number; tag: string }[]
}

const journal = JSON.parse(readFileSync('drizzle/meta/_journal.json', 'utf8')) as Journal

describe('the migration journal', () => {
  // migrate.ts (like drizzle's migrator) applies the migrations whose `when` is later than the
  // last applied one: a migration whose `when` is not above its predecessor's would be skipped
  // for good on every database that already had the predecessor.
  it('has a strictly increasing `when` in file order', () => {
    const out = journal.entries.filter((e, i) => i > 0 && e.when <= journal.entries[i - 1]!.when)
    expect(out.map((e) => e.tag)).toEqual([])
  })

  it('numbers the files in order', () => {
    journal.entries.forEach((e, i) => {
      expect(e.idx).toBe(i)
      expect(e.tag.startsWith(String(i).padStart(4, '0'))).toBe(true)
    })
  })
})
