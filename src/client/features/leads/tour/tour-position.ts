export interface Box {
  top: number
  left: number
  width: number
  height: number
}

const MARGIN = 8

const clamp = (v: number, min: number, max: number) => Math.max(min, Math.min(v, max))

/** Whether a target's box is on screen at all (a closed sidebar sits off to the left). */
export function isOnScreen(box: Box, viewport: { width: number; height: number }): boolean {
  return (
    box.width > 0 &&
    box.height > 0 &&
    box.left + box.width > 0 &&
    box.left < viewport.width &&
    box.top + box.height > 0 &&
    box.top < viewport.height
  )
}

/**
 * Where the step's card goes: beside the target, else below, else above, else at the bottom;
 * centred when there is no target on screen. Always wholly inside the window.
 */
export function placeCard(
  target: Box | null,
  card: { width: number; height: number },
  viewport: { width: number; height: number },
  gap = 12,
): { top: number; left: number } {
  const maxLeft = Math.max(MARGIN, viewport.width - card.width - MARGIN)
  const maxTop = Math.max(MARGIN, viewport.height - card.height - MARGIN)
  if (!target) {
    return {
      top: clamp((viewport.height - card.height) / 2, MARGIN, maxTop),
      left: clamp((viewport.width - card.width) / 2, MARGIN, maxLeft),
    }
  }
  const right = target.left + target.width
  const bottom = target.top + target.height
  if (right + gap + card.width <= viewport.width - MARGIN) {
    return { top: clamp(target.top, MARGIN, maxTop), left: right + gap }
  }
  const left = clamp(target.left, MARGIN, maxLeft)
  if (bottom + gap + card.height <= viewport.height - MARGIN) return { top: bottom + gap, left }
  if (target.top - gap - card.height >= MARGIN) return { top: target.top - gap - card.height, left }
  return { top: maxTop, left }
}
