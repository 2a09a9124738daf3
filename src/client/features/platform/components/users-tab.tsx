import { Pencil } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { SearchBox } from '@/client/components/ui/search-box'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { roleLabels } from '@/shared/roles'
import type { PlatformUser } from '@/shared/schemas/platform'
import { usePlatformUsers } from '../api/users'
import { EditUserDialog } from './edit-user-dialog'

/** Users: every account with a role badge, an Active/Inactive badge and Edit. */
export function UsersTab({ selfEmail }: { selfEmail: string }) {
  const [text, setText] = useState('')
  const q = useDebouncedValue(text.trim(), 250)
  const query = usePlatformUsers(q)
  const [editing, setEditing] = useState<PlatformUser | null>(null)
  const items = query.data?.items ?? []
  return (
    <div className="space-y-4">
      <SearchBox
        value={text}
        onChange={setText}
        placeholder="Search by name or email"
        label="Search users"
      />
      {query.isError ? (
        <InlineLoadError message="Failed to load users." onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          No users match this search.
        </p>
      ) : (
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          aria-label="Users"
        >
          {items.map((u) => (
            <li key={u.id} className="flex flex-wrap items-center justify-between gap-3 p-3 sm:p-4">
              <div className="min-w-0">
                <p className="font-medium">{u.name}</p>
                <p className="text-sm text-slate-600">{u.email}</p>
                <p className="text-xs text-slate-600">{u.hospitalName ?? 'Platform account'}</p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Badge variant={u.role === 'super_admin' ? 'purple' : 'blue'}>
                  {roleLabels[u.role]}
                </Badge>
                <Badge variant={u.isActive && u.status === 'active' ? 'green' : 'secondary'}>
                  {u.status === 'suspended' ? 'Suspended' : u.isActive ? 'Active' : 'Inactive'}
                </Badge>
                {u.email !== selfEmail ? (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setEditing(u)}
                    aria-label={`Edit ${u.name} (${u.email})`}
                  >
                    <Pencil aria-hidden="true" /> Edit
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {query.data && query.data.total > items.length ? (
        <p className="text-sm text-slate-600">
          Showing {items.length} of {query.data.total}. Search to narrow the list.
        </p>
      ) : null}
      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
    </div>
  )
}
