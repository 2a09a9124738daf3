import { ChevronUp, Minus, Sparkles, X } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import type { WelcomeState } from './use-tour'

/**
 * The welcome card (spec section 4): shown 2 s after the dashboard opens while the tour is
 * neither completed nor dismissed; it starts the tour, minimises, or is dismissed.
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
      <div className="fixed right-4 bottom-4 z-40">
        <Button onClick={onExpand} className="shadow-lg">
          <ChevronUp aria-hidden="true" />
          Show welcome
        </Button>
      </div>
    )
  }
  return (
    <section
      aria-labelledby="welcome-card-title"
      className="fixed right-4 bottom-4 z-40 w-[calc(100%-2rem)] max-w-sm rounded-lg border border-brand-600/30 bg-white p-4 shadow-xl motion-safe:animate-tour-step"
    >
      <div className="flex items-start gap-3">
        <Sparkles className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h2 id="welcome-card-title" className="font-semibold">
            Welcome to Arogya CRM!
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            New here? Take a quick 2-minute tour of the lead dashboard.
          </p>
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
      </div>
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onDismiss}>
          Maybe later
        </Button>
        <Button size="sm" onClick={onStart}>
          Start Tour
        </Button>
      </div>
    </section>
  )
}
