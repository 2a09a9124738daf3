import { LogIn } from 'lucide-react'
import { useLocation } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { paths } from '@/client/paths'
import { supportToasts } from '@/shared/schemas/support-access'
import { useEnterHospital } from '../api/support-session'

/**
 * Enter hospital: only while the hospital has granted support access (the server checks it
 * again on entering and on every request inside).
 */
export function EnterHospitalButton({
  hospital,
}: {
  hospital: { id: string; name: string; supportAccessUntil: string | null }
}) {
  const enter = useEnterHospital()
  const [, navigate] = useLocation()
  const until = hospital.supportAccessUntil
  const noteId = `support-note-${hospital.id}`

  async function go() {
    try {
      await enter.mutateAsync(hospital.id)
      toast.success(supportToasts.entered, hospital.name)
      navigate(paths.home)
    } catch (error) {
      toast.error(
        supportToasts.enterFailed,
        error instanceof ApiError ? error.serverMessage : 'Please try again.',
      )
    }
  }

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <Button
        variant="outline"
        size="sm"
        disabled={!until}
        loading={enter.isPending}
        onClick={() => void go()}
        aria-label={`Enter ${hospital.name}`}
        aria-describedby={noteId}
      >
        <LogIn aria-hidden="true" /> Enter hospital
      </Button>
      <span id={noteId} className="text-xs text-slate-600">
        {until
          ? `Support access until ${new Date(until).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' })}`
          : 'No support access granted'}
      </span>
    </div>
  )
}
