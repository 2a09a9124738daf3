import { Menu, X } from 'lucide-react'
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { AppearanceSync } from '@/client/components/appearance/appearance-sync'
import { CommandPaletteButton } from '@/client/components/command-palette/command-palette-button'
import { Button } from '@/client/components/ui/button'
import { displayName } from '@/client/lib/display-name'
import type { CurrentUser } from '@/shared/schemas/auth'
import { roleLabels } from '@/shared/roles'
import { AccessBanner } from './access-banner'
import { SIDEBAR_OPEN_MIN_WIDTH } from './nav-items'
import { AvatarButtonPlaceholder } from './avatar'
import { Sidebar } from './sidebar'

// The menu (Radix, with its positioning code) loads beside the page instead of before the shell.
const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })))

function isWide(): boolean {
  return typeof window !== 'undefined' && window.innerWidth >= SIDEBAR_OPEN_MIN_WIDTH
}

/**
 * The signed-in frame: sidebar, top bar with the hospital, the user and the account menu,
 * and the page. Nothing in it may push the page wider than the screen: long names truncate
 * (full text on hover) and the page column can shrink (min-w-0).
 */
export function AppShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const [open, setOpen] = useState(isWide)
  // Crossing the breakpoint (a tablet turned, a window resized) gives that width's default:
  // open beside the page when wide, closed when it would cover the page.
  useEffect(() => {
    const wide = window.matchMedia(`(min-width: ${SIDEBAR_OPEN_MIN_WIDTH}px)`)
    const follow = (e: MediaQueryListEvent) => setOpen(e.matches)
    wide.addEventListener('change', follow)
    return () => wide.removeEventListener('change', follow)
  }, [])
  const hospital = user.hospitalName ?? 'Arogya CRM platform'
  const who = `${displayName(user)} · ${roleLabels[user.role]}`
  return (
    <div className="flex min-h-screen">
      <AppearanceSync />
      <Sidebar
        open={open}
        isSuperAdmin={user.isSuperAdmin}
        onClose={() => setOpen(false)}
        onNavigate={() => {
          if (!isWide()) setOpen(false)
        }}
      />
      {open ? (
        <div
          className="fixed inset-0 z-20 bg-slate-900/40 md:hidden"
          onClick={() => setOpen(false)}
          aria-hidden="true"
        />
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-10 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur">
          <Button
            variant="ghost"
            size="icon"
            className="shrink-0"
            onClick={() => setOpen((o) => !o)}
            aria-label={open ? 'Close Menu' : 'Open Menu'}
            aria-expanded={open}
            aria-controls="app-sidebar"
          >
            {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </Button>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-semibold" title={hospital}>
              {hospital}
            </p>
            <p className="truncate text-xs text-slate-600" title={who}>
              {who}
            </p>
          </div>
          <CommandPaletteButton user={user} />
          <Suspense fallback={<AvatarButtonPlaceholder user={user} />}>
            <UserMenu user={user} />
          </Suspense>
        </header>
        <AccessBanner user={user} />
        <main className="mx-auto w-full max-w-6xl min-w-0 flex-1 p-4 md:p-6">{children}</main>
      </div>
    </div>
  )
}
