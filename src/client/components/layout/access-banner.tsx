import { useQueryClient } from '@tanstack/react-query'
import { Lock, LogOut, ShieldAlert } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { getUserQueryOptions } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { paths } from '@/client/paths'
import type { CurrentUser } from '@/shared/schemas/auth'
import type { SupportVisit } from '@/shared/schemas/support-access'
import { supportToasts } from '@/shared/support-access-texts'
import { useExitSupportVisit } from './api/exit-support-visit'

/** '1 h 05 min left', '4 min left', 'less than a minute left'. */
export function timeLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000)
  if (minutes < 1) return 'less than a minute left'
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return h ? `${h} h ${String(m).padStart(2, '0')} min left` : `${m} min left`
}

function SupportBanner({ visit }: { visit: SupportVisit }) {
  const queryClient = useQueryClient()
  const exit = useExitSupportVisit()
  const [, navigate] = useLocation()
  const end = Date.parse(visit.expiresAt)
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000)
    return () => clearInterval(timer)
  }, [])
  const over = now >= end
  // The grant ran out: the server already refuses; read the user again to leave the hospital.
  useEffect(() => {
    if (over) void queryClient.invalidateQueries({ queryKey: getUserQueryOptions().queryKey })
  }, [over, queryClient])

  async function leave() {
    await exit.mutateAsync()
    toast.success(supportToasts.exited, visit.hospitalName)
    navigate(paths.superAdmin)
  }

  return (
    <div
      role="region"
      aria-label="Support access"
      className="flex flex-wrap items-center gap-3 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950"
    >
      <ShieldAlert aria-hidden="true" className="size-5 shrink-0" />
      <p className="min-w-0 flex-1 [overflow-wrap:anywhere]">
        You are inside <strong>{visit.hospitalName}</strong> as Arogya support ·{' '}
        <strong>{visit.scope === 'full_admin' ? 'full admin' : 'support role'}</strong> ·{' '}
        <span>{over ? 'access ended' : timeLeft(end - now)}</span>. Everything you do is recorded
        and shown to the hospital&apos;s admin.
        {visit.scope === 'full_admin'
          ? null
          : ' The team, security settings, credentials, exports, deletes and restores stay with the hospital’s own admin.'}
      </p>
      <Button size="sm" variant="outline" loading={exit.isPending} onClick={() => void leave()}>
        <LogOut aria-hidden="true" /> Exit
      </Button>
    </div>
  )
}

/**
 * The shell's banner (issue 27): a super admin inside a hospital under its support grant, or a
 * hospital that is read-only (cancelled, or past due beyond the grace period) and why.
 */
export function AccessBanner({ user }: { user: CurrentUser }) {
  return (
    <>
      {user.supportVisit ? <SupportBanner visit={user.supportVisit} /> : null}
      {user.readOnly ? (
        <div
          role="status"
          className="flex items-start gap-3 border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-900"
        >
          <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p className="min-w-0 [overflow-wrap:anywhere]">
            <strong>Read-only.</strong> {user.readOnly.message}
          </p>
        </div>
      ) : null}
    </>
  )
}
