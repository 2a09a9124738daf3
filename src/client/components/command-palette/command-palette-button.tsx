import { Search } from 'lucide-react'
import { lazy, Suspense, useEffect, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import type { CurrentUser } from '@/shared/schemas/auth'

// cmdk and the palette load on first use, so the first route's JS does not grow.
const CommandPalette = lazy(() =>
  import('./command-palette').then((m) => ({ default: m.CommandPalette })),
)

function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
}

/**
 * The header's search button and the Ctrl/⌘+K shortcut that open the command palette.
 */
export function CommandPaletteButton({ user }: { user: CurrentUser }) {
  const [open, setOpen] = useState(false)
  const [wanted, setWanted] = useState(false)

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault()
        setWanted(true)
        setOpen((o) => !o)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const shortcut = isMac() ? '⌘K' : 'Ctrl+K'
  return (
    <>
      <Button
        variant="outline"
        className="shrink-0 gap-2 px-2 text-slate-700 sm:px-3"
        onClick={() => {
          setWanted(true)
          setOpen(true)
        }}
        aria-label={`Search and commands (${shortcut})`}
        aria-keyshortcuts="Control+K Meta+K"
      >
        <Search aria-hidden="true" />
        <span className="hidden sm:inline">Search</span>
        <kbd className="hidden rounded border border-slate-300 bg-slate-50 px-1.5 text-xs font-medium text-slate-700 md:inline">
          {shortcut}
        </kbd>
      </Button>
      {wanted ? (
        <Suspense fallback={null}>
          <CommandPalette user={user} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  )
}
