import { type CSSProperties, useSyncExternalStore } from 'react'
import { Toaster } from 'sonner'

/** Phones: below Tailwind's `sm` breakpoint. */
const PHONE = '(max-width: 639.98px)'

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE)
  query.addEventListener('change', onChange)
  return () => query.removeEventListener('change', onChange)
}

function useIsPhone(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE).matches)
}

/** Just below the app's 64 px header, so a toast hides neither the header nor the page's actions. */
const BELOW_HEADER = 72

/**
 * sonner's rich colours put mid-tone text on pale backgrounds (about 4.3:1, below WCAG AA's
 * 4.5:1); the same hues, darker, read at 7:1 or more.
 */
const contrast = {
  '--success-text': 'hsl(140, 100%, 20%)',
  '--info-text': 'hsl(210, 92%, 32%)',
  '--warning-text': 'hsl(31, 92%, 26%)',
  '--error-text': 'hsl(360, 100%, 35%)',
} as CSSProperties

/**
 * Spec section 9: one toast at a time, 5000 ms, swipe right to dismiss, F8 focuses the area.
 * Toasts appear at the top (top right on wider screens, across the top on phones): forms end
 * in their submit button, so a toast at the bottom would cover the action just taken.
 */
export function AppToaster() {
  const phone = useIsPhone()
  return (
    <Toaster
      visibleToasts={1}
      duration={5000}
      hotkey={['F8']}
      swipeDirections={['right']}
      position={phone ? 'top-center' : 'top-right'}
      offset={{ top: BELOW_HEADER, right: 16 }}
      mobileOffset={{ top: BELOW_HEADER, left: 8, right: 8 }}
      richColors
      closeButton
      style={{ maxWidth: 420, ...contrast }}
    />
  )
}
