import { Loader2 } from 'lucide-react'
import { cn } from '@/client/lib/cn'

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className="inline-flex">
      <Loader2 className={cn('size-4 animate-spin', className)} aria-hidden="true" />
    </span>
  )
}
