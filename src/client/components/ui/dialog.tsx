import { X } from 'lucide-react'
import { Dialog as D } from 'radix-ui'
import type { ReactNode } from 'react'
import { cn } from '@/client/lib/cn'

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description?: string
  children: ReactNode
  className?: string
}) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <D.Content
          className={cn(
            // Long unbroken text (names, emails, URLs) wraps: the dialog never scrolls sideways.
            'fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 overflow-x-hidden overflow-y-auto rounded-lg bg-white p-4 shadow-xl [overflow-wrap:anywhere] sm:p-6',
            className,
          )}
          {...(description ? {} : { 'aria-describedby': undefined })}
          // Escape in a combobox whose list is open closes only the list (issue 40, item 12).
          onEscapeKeyDown={(e) => {
            const at = e.target
            if (at instanceof HTMLElement && at.matches('[role="combobox"][aria-expanded="true"]'))
              e.preventDefault()
          }}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div className="min-w-0">
              <D.Title className="text-lg font-semibold">{title}</D.Title>
              {description ? (
                <D.Description className="mt-1 text-sm text-slate-600">{description}</D.Description>
              ) : null}
            </div>
            <D.Close
              className="shrink-0 rounded-md p-1 text-slate-500 hover:bg-slate-100"
              aria-label="Close"
            >
              <X className="size-5" aria-hidden="true" />
            </D.Close>
          </div>
          {children}
        </D.Content>
      </D.Portal>
    </D.Root>
  )
}
