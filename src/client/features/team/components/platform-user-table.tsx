import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { formatDate } from '@/shared/dates'
import type { PlatformUser } from '@/shared/schemas/platform'

const th = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase'
const cell = 'px-3 py-2 align-middle'

/** An empty plan shows as Free (spec section 3, "User"). */
const planLabel = (plan: string | null) =>
  plan ? plan.charAt(0).toUpperCase() + plan.slice(1) : 'Free'

/**
 * The spec's user table: User, Email, Plan, Status, Joined, Actions (Suspend or Activate).
 * Columns drop out as the card narrows (container queries): nothing scrolls sideways at 360 px.
 */
export function PlatformUserTable({
  users,
  selfEmail,
  busyId,
  onToggle,
}: {
  users: PlatformUser[]
  selfEmail: string
  busyId: string | null
  onToggle: (u: PlatformUser) => void
}) {
  return (
    <div className="@container rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th scope="col" className={th}>
              User
            </th>
            <th scope="col" className={`${th} hidden @3xl:table-cell`}>
              Email
            </th>
            <th scope="col" className={`${th} hidden w-28 @2xl:table-cell`}>
              Plan
            </th>
            <th scope="col" className={`${th} hidden w-28 @xl:table-cell`}>
              Status
            </th>
            <th scope="col" className={`${th} hidden w-32 @4xl:table-cell`}>
              Joined
            </th>
            <th scope="col" className={`${th} w-28`}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {users.map((u) => {
            const suspended = u.status === 'suspended'
            return (
              <tr key={u.id}>
                <td className={`${cell} [overflow-wrap:anywhere]`}>
                  <p className="font-medium text-slate-900">{u.name}</p>
                  <p className="text-xs text-slate-600 @3xl:hidden">{u.email}</p>
                  <p className="text-xs text-slate-600">{u.hospitalName ?? 'Platform account'}</p>
                  <p className="text-xs text-slate-600 @xl:hidden">
                    {suspended ? 'Suspended' : 'Active'}
                  </p>
                </td>
                <td className={`${cell} hidden [overflow-wrap:anywhere] @3xl:table-cell`}>
                  {u.email}
                </td>
                <td className={`${cell} hidden @2xl:table-cell`}>{planLabel(u.plan)}</td>
                <td className={`${cell} hidden @xl:table-cell`}>
                  <Badge variant={suspended ? 'destructive' : 'green'}>
                    {suspended ? 'Suspended' : 'Active'}
                  </Badge>
                </td>
                <td className={`${cell} hidden @4xl:table-cell`}>{formatDate(u.createdAt)}</td>
                <td className={cell}>
                  {u.email === selfEmail ? (
                    <span className="text-xs text-slate-600">You</span>
                  ) : (
                    <Button
                      variant={suspended ? 'outline' : 'destructive'}
                      size="sm"
                      loading={busyId === u.id}
                      onClick={() => onToggle(u)}
                      aria-label={`${suspended ? 'Activate' : 'Suspend'} ${u.name}`}
                    >
                      {suspended ? 'Activate' : 'Suspend'}
                    </Button>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
