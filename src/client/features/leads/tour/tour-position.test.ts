import { describe, expect, it } from 'vitest'
import { isOnScreen, placeCard } from './tour-position'

const laptop = { width: 1280, height: 800 }
const phone = { width: 360, height: 740 }
const card = { width: 340, height: 240 }

describe('placeCard', () => {
  it('centres the card without a target', () => {
    expect(placeCard(null, card, laptop)).toEqual({ top: 280, left: 470 })
  })

  it('puts it beside a narrow target (the sidebar)', () => {
    expect(placeCard({ top: 0, left: 0, width: 256, height: 800 }, card, laptop)).toEqual({
      top: 8,
      left: 268,
    })
  })

  it('puts it below a wide target, or above when there is no room below', () => {
    expect(placeCard({ top: 100, left: 280, width: 980, height: 120 }, card, laptop)).toEqual({
      top: 232,
      left: 280,
    })
    expect(placeCard({ top: 600, left: 280, width: 980, height: 150 }, card, laptop)).toEqual({
      top: 348,
      left: 280,
    })
  })

  it('keeps the card inside a phone screen', () => {
    const at = placeCard({ top: 80, left: 16, width: 328, height: 700 }, card, phone)
    expect(at.left).toBeGreaterThanOrEqual(8)
    expect(at.left + card.width).toBeLessThanOrEqual(phone.width - 8)
    expect(at.top + card.height).toBeLessThanOrEqual(phone.height - 8)
  })
})

describe('isOnScreen', () => {
  it('knows a closed sidebar is off screen', () => {
    expect(isOnScreen({ top: 0, left: -256, width: 256, height: 740 }, phone)).toBe(false)
    expect(isOnScreen({ top: 0, left: 0, width: 0, height: 0 }, phone)).toBe(false)
    expect(isOnScreen({ top: 0, left: 0, width: 256, height: 740 }, phone)).toBe(true)
  })
})
