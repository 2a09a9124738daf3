import { AlertDialog as AD } from 'radix-ui'
import { Button } from './button'

/**
 * A yes/no question over the page (Radix AlertDialog): focus starts on the safe choice
 * (cancel), Escape means cancel, and clicking outside does nothing.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  cancelLabel,
  confirmLabel,
  onConfirm,
  destructive = false,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description?: string
  cancelLabel: string
  confirmLabel: string
  onConfirm: () => void
  destructive?: boolean
}) {
  return (
    <AD.Root open={open} onOpenChange={onOpenChange}>
      <AD.Portal>
        <AD.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <AD.Content
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-5 shadow-xl [overflow-wrap:anywhere] sm:p-6"
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <AD.Title className="text-lg font-semibold">{title}</AD.Title>
          {description ? (
            <AD.Description className="mt-2 text-sm text-slate-600">{description}</AD.Description>
          ) : null}
          <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AD.Cancel asChild>
              <Button variant="outline">{cancelLabel}</Button>
            </AD.Cancel>
            <AD.Action asChild>
              <Button variant={destructive ? 'destructive' : 'default'} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AD.Action>
          </div>
        </AD.Content>
      </AD.Portal>
    </AD.Root>
  )
}
