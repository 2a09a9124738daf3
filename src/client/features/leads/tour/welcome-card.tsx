import { ChevronUp, Minus, Sparkles, X } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import type { WelcomeState } from './use-tour'

/**
 * The welcome card (spec section 4): shown 2 s after the dashboard opens while the tour is
 * neither completed nor dismissed; it starts the tour, minimises, or is dismissed. It sits in the
 * page under the header rather than floating, so it never covers the table's Actions column
 * (issue 40 item 8).
 */
export function WelcomeCard({
  state,
  onStart,
  onMinimise,
  onExpand,
  onDismiss,
}: {
  state: WelcomeState
  onStart: () => void
  onMinimise: () => void
  onExpand: () => void
  onDismiss: () => void
}) {
  if (state === 'hidden') return null
  if (state === 'minimised') {
    return (
      <div className="flex justify-end">
        <Button variant="outline" size="sm" onClick={onExpand}>
          <ChevronUp aria-hidden="true" />
          Show welcome
        </Button>
      </div>
    )
  }
  return (
    <section
      aria-labelledby="welcome-card-title"
      className="flex items-start gap-3 rounded-lg border border-brand-600/30 bg-white p-4 shadow-sm motion-safe:animate-tour-step"
    >
      <Sparkles className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
      <div className="min-w-0 flex-1 sm:flex sm:items-center sm:gap-4">
        <div className="min-w-0 sm:flex-1">
          <h2 id="welcome-card-title" className="font-semibold">
            Welcome to Arogya CRM!
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            New here? Take a quick 2-minute tour of the lead dashboard.
          </p>
        </div>
        <div className="mt-3 flex flex-wrap gap-2 sm:mt-0 sm:shrink-0">
          <Button variant="outline" size="sm" onClick={onDismiss}>
            Maybe later
          </Button>
          <Button size="sm" onClick={onStart}>
            Start Tour
          </Button>
        </div>
      </div>
      <div className="-mt-1 -mr-1 flex shrink-0">
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          onClick={onMinimise}
          aria-label="Minimise welcome card"
        >
          <Minus aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          onClick={onDismiss}
          aria-label="Dismiss welcome card"
        >
          <X aria-hidden="true" />
        </Button>
      </div>
    </section>
  )
}
