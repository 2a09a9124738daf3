import { LogOut, Menu, X } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { serverPaths } from '@/client/paths'
import type { CurrentUser } from '@/shared/schemas/auth'
import { roleLabels } from '@/shared/roles'
import { SIDEBAR_OPEN_MIN_WIDTH } from './nav-items'
import { Sidebar } from './sidebar'

function isWide(): boolean {
  return typeof window !== 'undefined' && window.innerWidth >= SIDEBAR_OPEN_MIN_WIDTH
}

export function displayName(user: CurrentUser): string {
  return user.firstName ?? user.username ?? 'User'
}

/** The signed-in frame: sidebar, top bar with the user and Sign Out, and the page. */
export function AppShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const [open, setOpen] = useState(isWide)
  return (
    <div className="flex min-h-screen">
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
            onClick={() => setOpen((o) => !o)}
            aria-label={open ? 'Close Menu' : 'Open Menu'}
            aria-expanded={open}
            aria-controls="app-sidebar"
          >
            {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </Button>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-semibold">
              {user.hospitalName ?? 'Arogya CRM platform'}
            </p>
            <p className="truncate text-xs text-slate-500">
              {displayName(user)} · {roleLabels[user.role]}
            </p>
          </div>
          <Button variant="outline" size="sm" asChild>
            <a href={serverPaths.logout}>
              <LogOut aria-hidden="true" />
              Sign Out
            </a>
          </Button>
        </header>
        <main className="mx-auto w-full max-w-6xl flex-1 p-4 md:p-6">{children}</main>
      </div>
    </div>
  )
}
