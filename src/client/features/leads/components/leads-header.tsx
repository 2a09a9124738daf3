import { Bell, FileUp, Home, Plus, RefreshCw } from 'lucide-react'
import { Link } from 'wouter'
import { Button } from '@/client/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/client/components/ui/dropdown-menu'
import { useUnread } from '@/client/components/messaging/api/get-unread'
import { paths } from '@/client/paths'
import type { Stats } from '@/shared/schemas/leads'

const count = new Intl.NumberFormat('en-IN')

/**
 * The bell: follow-ups overdue plus unread inbound replies (not the original's fixed 3). The
 * replies' count is live (GET /api/messaging/unread and its server-sent 'unread' events).
 */
function NotificationBell({ stats }: { stats: Stats | undefined }) {
  const live = useUnread()
  const overdue = stats?.trends.followUpsOverdue ?? 0
  const unread = live.data?.count ?? stats?.unreadInbound ?? 0
  const n = overdue + unread
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          size="icon"
          className="relative"
          aria-label={`Notifications: ${n} ${n === 1 ? 'needs' : 'need'} attention`}
        >
          <Bell aria-hidden="true" />
          {n > 0 ? (
            <span
              aria-hidden="true"
              data-testid="bell-count"
              className="absolute -top-1.5 -right-1.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white"
            >
              {n > 99 ? '99+' : n}
            </span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="font-semibold">Notifications</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="text-slate-700">
          {count.format(overdue)} {overdue === 1 ? 'follow-up is' : 'follow-ups are'} overdue
        </DropdownMenuLabel>
        <DropdownMenuLabel className="text-slate-700">
          {count.format(unread)} unread {unread === 1 ? 'message' : 'messages'}
        </DropdownMenuLabel>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

/** Spec: Main Page, Sync Leads and the bell (the menu toggle is the app header's). */
export function LeadsHeader({
  stats,
  syncing,
  onSync,
  onNewLead,
  onImport,
  tourButton,
}: {
  stats: Stats | undefined
  syncing: boolean
  onSync: () => void
  /** Absent when the user's role may not add leads. */
  onNewLead?: (() => void) | undefined
  /** Import CSV; absent when the user's role may not import leads. */
  onImport?: (() => void) | undefined
  tourButton: React.ReactNode
}) {
  return (
    <div className="space-y-3">
      {/* The bell stays beside the heading, so on a phone it is not left alone on a row. */}
      <div className="flex items-start justify-between gap-3">
        <h1 className="min-w-0 text-2xl font-bold [overflow-wrap:anywhere]">
          Lead Management Dashboard
        </h1>
        <NotificationBell stats={stats} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="outline" asChild>
          <Link href={paths.home}>
            <Home aria-hidden="true" />
            Main Page
          </Link>
        </Button>
        <Button variant="outline" onClick={onSync} loading={syncing} loadingText="Syncing...">
          <RefreshCw aria-hidden="true" />
          Sync Leads
        </Button>
        {onNewLead ? (
          <Button onClick={onNewLead}>
            <Plus aria-hidden="true" />
            New Lead
          </Button>
        ) : null}
        {onImport ? (
          <Button variant="outline" onClick={onImport}>
            <FileUp aria-hidden="true" />
            Import CSV
          </Button>
        ) : null}
        {tourButton}
      </div>
    </div>
  )
}
