import { CircleHelp } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'

/** Spec section 9: tooltips open after 700 ms; within 300 ms of one closing, the next opens at once. */
export const TOOLTIP_OPEN_DELAY_MS = 700
export const TOOLTIP_SKIP_DELAY_MS = 300

/** When any help tooltip last closed: shared, so moving along a row of them skips the delay. */
let lastClosedAt = 0

/**
 * A help button with a tooltip: opens on hover after the delay, at once on keyboard focus
 * or a tap, closes on leave, blur or Escape. The text stays hoverable (WCAG 1.4.13).
 */
export function HelpTooltip({ topic, children }: { topic: string; children: string }) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const pointerDown = useRef(false)

  function cancel() {
    clearTimeout(timer.current)
    timer.current = undefined
  }
  function show(immediately: boolean) {
    cancel()
    if (immediately || Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS) setOpen(true)
    else timer.current = setTimeout(() => setOpen(true), TOOLTIP_OPEN_DELAY_MS)
  }
  function hide() {
    cancel()
    setOpen((wasOpen) => {
      if (wasOpen) lastClosedAt = Date.now()
      return false
    })
  }

  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return
      lastClosedAt = Date.now()
      setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])
  useEffect(() => cancel, [])

  return (
    <span
      className="relative inline-flex"
      onPointerEnter={(e) => {
        if (e.pointerType === 'mouse') show(false)
      }}
      onPointerLeave={(e) => {
        if (e.pointerType === 'mouse') hide()
      }}
    >
      <button
        type="button"
        aria-label={`About ${topic}`}
        aria-describedby={open ? id : undefined}
        className="grid size-8 place-items-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-brand-800"
        onPointerDown={() => {
          pointerDown.current = true
        }}
        onFocus={() => {
          if (!pointerDown.current) show(true)
        }}
        onBlur={() => {
          pointerDown.current = false
          hide()
        }}
        onClick={() => {
          pointerDown.current = false
          if (open && !timer.current) hide()
          else show(true)
        }}
      >
        <CircleHelp className="size-[18px]" aria-hidden="true" />
      </button>
      {open ? (
        <span
          role="tooltip"
          id={id}
          className="absolute top-full right-0 z-20 mt-2 w-64 max-w-[calc(100vw-3rem)] rounded-lg bg-slate-900 px-3 py-2 text-left text-sm leading-snug font-normal text-white shadow-lg"
        >
          {children}
        </span>
      ) : null}
    </span>
  )
}
