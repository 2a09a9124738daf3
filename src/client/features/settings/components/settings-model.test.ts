import { describe, expect, it } from 'vitest'
import { invoicePrefixHint } from './invoice-prefix-hint'
import { settingsTab } from './settings-model'

describe('Settings (issue 40 item 15)', () => {
  it('opens on General for everyone; ?tab= opens another', () => {
    expect(settingsTab(null)).toBe('general')
    expect(settingsTab('nonsense')).toBe('general')
    expect(settingsTab('integrations')).toBe('integrations')
  })

  it("the invoice-prefix hint shows the hospital's own prefix", () => {
    const at = new Date('2026-12-02T10:00:00Z')
    expect(invoicePrefixHint('SMHP', 'Asia/Kolkata', at)).toBe(
      'Invoice numbers look like SMHP/2026-27/000123',
    )
    expect(invoicePrefixHint('', 'Asia/Kolkata', at)).toBe(
      'Invoice numbers look like INV/2026-27/000123',
    )
  })
})
