import { Pencil, Plus } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useServices } from '../api/get-services'
import { ServiceForm } from './service-form'
import { Money } from '../components/money'

/**
 * The hospital's service catalogue (billing:write): the services that pre-fill invoice lines
 * and that patients book. Add one, or edit name, code, price, GST rate, duration and flags.
 */
export function ServicesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const services = useServices()
  /** 'new', a service's id, or null when only the list shows. */
  const [editing, setEditing] = useState<string | null>(null)
  if (!open) return null
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Service catalogue"
      description="Services pre-fill invoice lines; bookable ones appear on the booking page."
      className="max-w-3xl"
    >
      <div className="space-y-3">
        {editing === 'new' ? (
          <ServiceForm service={null} onDone={() => setEditing(null)} />
        ) : (
          <Button size="sm" onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" /> Add service
          </Button>
        )}
        {services.isPending ? (
          <div role="status" aria-busy="true" aria-label="Loading services" className="space-y-2">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : services.isError ? (
          <InlineLoadError
            message="Failed to load the services."
            onRetry={() => void services.refetch()}
          />
        ) : services.data.length === 0 ? (
          <p className="text-sm text-slate-600">No services yet. Add your first service.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {services.data.map((s) => (
              <li key={s.id} className="p-3" data-testid="catalogue-service">
                {editing === s.id ? (
                  <ServiceForm service={s} onDone={() => setEditing(null)} />
                ) : (
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <div className="min-w-0">
                      <p className="font-medium">{s.name}</p>
                      <p className="text-xs text-slate-600">
                        {s.code ? `SAC/HSN ${s.code} · ` : ''}
                        <Money paise={s.defaultPrice} /> ·{' '}
                        {s.gstRate ? `GST ${s.gstRate}%` : 'GST exempt'} · {s.durationMinutes} min
                      </p>
                    </div>
                    <div className="flex flex-wrap items-center gap-2">
                      {s.bookable ? <Badge variant="blue">Bookable</Badge> : null}
                      {s.active ? null : <Badge variant="secondary">Inactive</Badge>}
                      <Button size="sm" variant="outline" onClick={() => setEditing(s.id)}>
                        <Pencil aria-hidden="true" /> Edit<span className="sr-only"> {s.name}</span>
                      </Button>
                    </div>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  )
}
