import { useCallback, useEffect, useRef, useState } from 'react'
import { tourFlags } from './tour-flags'
import { tourSteps } from './tour-steps'

/** Spec section 9: the welcome card appears 2 seconds after the dashboard opens. */
export const WELCOME_DELAY_MS = 2000

export type WelcomeState = 'hidden' | 'open' | 'minimised'

/**
 * The welcome card and the six-step tour (spec section 4): Next on the last step completes
 * (completed flag), closing skips (dismissed flag), dismissing the card sets dismissed, and
 * restarting clears both flags. Focus goes back where it was when the tour ends.
 */
export function useTour() {
  const [welcome, setWelcome] = useState<WelcomeState>('hidden')
  const [step, setStep] = useState<number | null>(null)
  const returnFocus = useRef<HTMLElement | null>(null)

  useEffect(() => {
    if (!tourFlags.isFresh()) return
    const timer = setTimeout(() => setWelcome('open'), WELCOME_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])

  const end = useCallback(() => {
    setStep(null)
    const target = returnFocus.current
    returnFocus.current = null
    if (target?.isConnected) setTimeout(() => target.focus(), 0)
  }, [])

  const start = useCallback(() => {
    const active = document.activeElement
    returnFocus.current = active instanceof HTMLElement && active !== document.body ? active : null
    setWelcome('hidden')
    setStep(0)
  }, [])

  return {
    welcome,
    step,
    start,
    restart: useCallback(() => {
      tourFlags.reset()
      start()
    }, [start]),
    next: useCallback(() => {
      if (step === null) return
      if (step < tourSteps.length - 1) {
        setStep(step + 1)
      } else {
        tourFlags.complete()
        end()
      }
    }, [step, end]),
    previous: useCallback(() => setStep((s) => (s && s > 0 ? s - 1 : s)), []),
    skip: useCallback(() => {
      tourFlags.dismiss()
      end()
    }, [end]),
    minimise: useCallback(() => setWelcome('minimised'), []),
    expand: useCallback(() => setWelcome('open'), []),
    dismissWelcome: useCallback(() => {
      tourFlags.dismiss()
      setWelcome('hidden')
    }, []),
  }
}
