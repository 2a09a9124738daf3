import { describe, expect, it } from 'vitest'
import { exportFileName } from './data-export'

describe('exportFileName', () => {
  it('dates the file by the hospital’s calendar, not UTC', () => {
    // 01:30 IST on 2 December is still 1 December in UTC.
    const at = new Date('2026-12-01T20:00:00Z')
    expect(exportFileName('data', at)).toBe('arogya-export-2026-12-02.zip')
    expect(exportFileName('backup', at, 'Asia/Kolkata')).toBe('arogya-backup-2026-12-02.zip')
    expect(exportFileName('fhir', at, 'UTC')).toBe('arogya-patients-fhir-2026-12-01.ndjson')
  })
})
