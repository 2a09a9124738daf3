import { X } from 'lucide-react'
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { type Box, isOnScreen, placeCard } from './tour-position'
import { actionHints, tourSteps } from './tour-steps'

function viewport() {
  return { width: window.innerWidth, height: window.innerHeight }
}

/** The step's target on screen, or null (no target, or hidden like a closed sidebar). */
function targetBox(selector: string | undefined): Box | null {
  if (!selector) return null
  const el = document.querySelector(selector)
  if (!el) return null
  const r = el.getBoundingClientRect()
  const box = { top: r.top, left: r.left, width: r.width, height: r.height }
  return isOnScreen(box, viewport()) ? box : null
}

/** Follows the target and the card as the page scrolls or the window changes. */
function useLayout(selector: string | undefined, card: HTMLElement | null) {
  const [layout, setLayout] = useState<{ target: Box | null; top: number; left: number } | null>(
    null,
  )
  const measure = useCallback(() => {
    const target = targetBox(selector)
    const size = card
      ? { width: card.offsetWidth, height: card.offsetHeight }
      : { width: 340, height: 240 }
    setLayout({ target, ...placeCard(target, size, viewport()) })
  }, [selector, card])
  useLayoutEffect(() => {
    if (selector) document.querySelector(selector)?.scrollIntoView({ block: 'nearest' })
    measure()
  }, [selector, measure])
  useEffect(() => {
    window.addEventListener('resize', measure)
    window.addEventListener('scroll', measure, true)
    return () => {
      window.removeEventListener('resize', measure)
      window.removeEventListener('scroll', measure, true)
    }
  }, [measure])
  return layout
}

/** On a 'click' step, clicking the highlighted element moves the tour on (and goes nowhere). */
function useClickToContinue(selector: string | undefined, enabled: boolean, onNext: () => void) {
  useEffect(() => {
    if (!selector || !enabled) return
    const el = document.querySelector(selector)
    if (!el) return
    const handler = (e: Event) => {
      e.preventDefault()
      e.stopPropagation()
      onNext()
    }
    el.addEventListener('click', handler, true)
    return () => el.removeEventListener('click', handler, true)
  }, [selector, enabled, onNext])
}

/**
 * One tour step: a highlight around its target and a non-modal dialog beside it with the
 * progress bar and Previous / Next / Get Started. Escape or the close button skips the tour.
 */
export function TourPopover({
  step,
  onNext,
  onPrevious,
  onSkip,
}: {
  step: number
  onNext: () => void
  onPrevious: () => void
  onSkip: () => void
}) {
  const current = tourSteps[step]
  const [card, setCard] = useState<HTMLDivElement | null>(null)
  const layout = useLayout(current?.target, card)
  useClickToContinue(current?.target, current?.action === 'click', onNext)
  const focused = useRef<number | null>(null)

  // Each step takes focus, so keyboard and screen-reader users follow the tour.
  useEffect(() => {
    if (card && focused.current !== step) {
      focused.current = step
      card.focus()
    }
  }, [card, step])

  if (!current) return null
  const last = step === tourSteps.length - 1
  const total = tourSteps.length
  const hint = current.action === 'none' ? null : actionHints[current.action]
  return (
    <>
      {layout?.target ? (
        <div
          aria-hidden="true"
          data-testid="tour-highlight"
          className="pointer-events-none fixed z-40 rounded-lg ring-4 ring-brand-500 ring-offset-2 transition-all duration-300"
          style={{
            top: layout.target.top - 4,
            left: layout.target.left - 4,
            width: layout.target.width + 8,
            height: layout.target.height + 8,
          }}
        />
      ) : null}
      <div
        ref={setCard}
        role="dialog"
        aria-modal="false"
        aria-labelledby="tour-title"
        aria-describedby="tour-text"
        tabIndex={-1}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation()
            onSkip()
          }
        }}
        className="fixed z-50 w-[calc(100%-1rem)] max-w-[340px] rounded-lg border border-slate-200 bg-white p-4 shadow-2xl outline-none"
        style={{
          top: layout?.top ?? 8,
          left: layout?.left ?? 8,
          visibility: layout ? 'visible' : 'hidden',
        }}
      >
        <div key={step} className="motion-safe:animate-tour-step">
          <div className="flex items-start justify-between gap-2">
            <p className="text-xs font-medium text-slate-600">
              Step {step + 1} of {total}
            </p>
            <Button
              variant="ghost"
              size="icon"
              className="-mt-2 -mr-2 size-8"
              onClick={onSkip}
              aria-label="Skip tour"
            >
              <X aria-hidden="true" />
            </Button>
          </div>
          <div
            role="progressbar"
            aria-label="Tour progress"
            aria-valuemin={1}
            aria-valuemax={total}
            aria-valuenow={step + 1}
            aria-valuetext={`Step ${step + 1} of ${total}`}
            className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-[width] duration-300"
              style={{ width: `${((step + 1) / total) * 100}%` }}
            />
          </div>
          <h2 id="tour-title" className="mt-3 font-semibold">
            {current.title}
          </h2>
          <p id="tour-text" className="mt-1 text-sm text-slate-600">
            {current.text}
          </p>
          {hint ? <p className="mt-2 text-xs font-medium text-brand-800">{hint}</p> : null}
          <div className="mt-4 flex items-center justify-between gap-2">
            <Button variant="outline" size="sm" onClick={onPrevious} disabled={step === 0}>
              Previous
            </Button>
            <Button size="sm" onClick={onNext}>
              {last ? 'Get Started' : 'Next'}
            </Button>
          </div>
        </div>
      </div>
    </>
  )
}
