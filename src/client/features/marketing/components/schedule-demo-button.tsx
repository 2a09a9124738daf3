import { CalendarClock } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import type { DemoRequestSource } from '@/shared/schemas/demo-requests'
import { type CtaSize, type CtaVariant, ctaClass } from './cta'

export type DemoSource = DemoRequestSource

// The form (dialog, validation, API call) loads on first use, not with the page.
const loadDialog = () => import('./demo-request-dialog')
const DemoRequestDialog = lazy(() => loadDialog().then((m) => ({ default: m.DemoRequestDialog })))

/** 'Schedule Demo': opens the demo request form. */
export function ScheduleDemoButton({
  source,
  variant = 'secondary',
  size = 'lg',
  className = '',
}: {
  source: DemoSource
  variant?: CtaVariant
  size?: CtaSize
  className?: string
}) {
  const [open, setOpen] = useState(false)
  const [used, setUsed] = useState(false)
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        className={ctaClass(variant, size, className)}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => {
          setUsed(true)
          setOpen(true)
        }}
      >
        <CalendarClock aria-hidden="true" />
        Schedule Demo
      </button>
      {used ? (
        <Suspense fallback={null}>
          <DemoRequestDialog open={open} onOpenChange={setOpen} source={source} />
        </Suspense>
      ) : null}
    </>
  )
}
