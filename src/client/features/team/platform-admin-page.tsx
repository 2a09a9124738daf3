import { ArrowLeft, Database, Settings, ShieldCheck } from 'lucide-react'
import type { ReactNode } from 'react'
import { useState } from 'react'
import { Link } from 'wouter'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { ConfirmDialog } from '@/client/components/ui/confirm-dialog'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { SearchBox } from '@/client/components/ui/search-box'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { paths } from '@/client/paths'
import { formatMoney } from '@/shared/money'
import { adminToasts, type PlatformUser } from '@/shared/schemas/platform'
import { useAdminStats, useAdminUsers, useSetUserStatus } from './api/platform-admin'
import { PlatformUserTable } from './components/platform-user-table'

function StatCard({ label, value }: { label: string; value: string | undefined }) {
  return (
    <Card>
      <CardContent className="p-4">
        <p className="text-sm text-slate-600">{label}</p>
        {value === undefined ? (
          <Skeleton className="mt-1 h-8 w-20" />
        ) : (
          <p className="text-2xl font-semibold whitespace-nowrap text-slate-900 tabular-nums">
            {value}
          </p>
        )}
      </CardContent>
    </Card>
  )
}

/** The spec's three static cards, each linking to where that now lives. */
const places: { title: string; text: string; href: string; action: string; icon: ReactNode }[] = [
  {
    title: 'System Settings',
    text: 'Hospitals, plans, prices and subscription status live on the Super Admin Dashboard.',
    href: paths.superAdmin,
    action: 'Open Super Admin Dashboard',
    icon: <Settings aria-hidden="true" className="size-5" />,
  },
  {
    title: 'Database Management',
    text: 'Backups and data exports are run per hospital, by its admin (Backup, Settings → Data); the hospitals are on the Super Admin Dashboard.',
    href: paths.superAdmin,
    action: 'Open the hospitals',
    icon: <Database aria-hidden="true" className="size-5" />,
  },
  {
    title: 'Security & Access',
    text: 'Your two-factor sign-in, password and sessions are in Settings → Security.',
    href: `${paths.settings}?tab=security`,
    action: 'Open Security settings',
    icon: <ShieldCheck aria-hidden="true" className="size-5" />,
  },
]

/** /admin for a super admin (spec section 2, "Admin"): every account, Suspend and Activate. */
export function PlatformAdminPage({ selfEmail }: { selfEmail: string }) {
  const stats = useAdminStats()
  const [text, setText] = useState('')
  const q = useDebouncedValue(text.trim(), 250)
  const users = useAdminUsers(q)
  const setStatus = useSetUserStatus()
  const [busyId, setBusyId] = useState<string | null>(null)

  // Suspend asks first (issue 40 item 13): it signs the user out everywhere.
  const [confirming, setConfirming] = useState<PlatformUser | null>(null)
  function ask(u: PlatformUser) {
    if (u.status === 'active') setConfirming(u)
    else void toggle(u)
  }

  async function toggle(u: PlatformUser) {
    setBusyId(u.id)
    try {
      await setStatus.mutateAsync({
        id: u.id,
        status: u.status === 'active' ? 'suspended' : 'active',
      })
      toast.success(adminToasts.statusUpdated)
    } catch (error) {
      toast.error(
        adminToasts.statusFailed,
        error instanceof ApiError ? error.serverMessage : 'Please try again.',
      )
    } finally {
      setBusyId(null)
    }
  }

  const s = stats.data
  const items = users.data?.items ?? []
  return (
    <div className="min-w-0 space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold">Admin</h1>
          <Badge variant="purple">Super Admin</Badge>
        </div>
        <Button variant="outline" asChild>
          <Link href={paths.superAdmin}>
            <ArrowLeft aria-hidden="true" /> Back to Dashboard
          </Link>
        </Button>
      </div>
      {stats.isError ? (
        <InlineLoadError
          message="Failed to load the figures."
          onRetry={() => void stats.refetch()}
        />
      ) : (
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatCard label="Total Users" value={s && String(s.totalUsers)} />
          <StatCard label="Active Users" value={s && String(s.activeUsers)} />
          <StatCard label="New Today" value={s && String(s.newUsersToday)} />
          <StatCard label="Monthly Revenue" value={s && formatMoney(s.totalRevenue, 'INR')} />
        </div>
      )}
      <section aria-labelledby="admin-users" className="space-y-3">
        <h2 id="admin-users" className="text-lg font-semibold">
          Users
        </h2>
        <SearchBox
          value={text}
          onChange={setText}
          placeholder="Search by name or email"
          label="Search users"
        />
        {users.isError ? (
          <InlineLoadError message="Failed to load users." onRetry={() => void users.refetch()} />
        ) : users.isPending ? (
          <div role="status" aria-busy="true" aria-label="Loading users">
            <Skeleton className="h-48 w-full" />
          </div>
        ) : items.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
            No users match this search.
          </p>
        ) : (
          <PlatformUserTable users={items} selfEmail={selfEmail} busyId={busyId} onToggle={ask} />
        )}
      </section>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null)
        }}
        title={`Suspend ${confirming?.email ?? 'this user'}?`}
        description="They are signed out everywhere and cannot sign in until you activate them again."
        cancelLabel="Cancel"
        confirmLabel="Suspend"
        destructive
        onConfirm={() => {
          if (confirming) void toggle(confirming)
          setConfirming(null)
        }}
      />
      <div className="grid gap-3 md:grid-cols-3">
        {places.map((p) => (
          <Card key={p.title}>
            <CardContent className="space-y-3 p-4">
              <h2 className="flex items-center gap-2 font-semibold">
                {p.icon} {p.title}
              </h2>
              <p className="text-sm text-slate-600">{p.text}</p>
              <Button variant="outline" size="sm" asChild>
                <Link href={p.href}>{p.action}</Link>
              </Button>
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  )
}
