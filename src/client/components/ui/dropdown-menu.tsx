import { DropdownMenu as DM } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from '@/client/lib/cn'

/** Radix DropdownMenu in the shadcn/ui pattern: arrow keys move, Escape closes, focus returns. */
export const DropdownMenu = DM.Root
export const DropdownMenuTrigger = DM.Trigger
export const DropdownMenuGroup = DM.Group

/**
 * The menu. `container`: where it renders (default: the end of the body). A menu that belongs
 * to a landmark (the header's account menu) renders inside it, so screen-reader users find it
 * in the banner and no content sits outside the landmarks.
 */
export function DropdownMenuContent({
  className,
  sideOffset = 6,
  collisionPadding = 8,
  container,
  ...props
}: ComponentProps<typeof DM.Content> & { container?: HTMLElement | null }) {
  return (
    <DM.Portal container={container}>
      <DM.Content
        sideOffset={sideOffset}
        collisionPadding={collisionPadding}
        className={cn(
          // Never wider than the screen: long names and emails wrap inside.
          'z-50 max-h-[var(--radix-dropdown-menu-content-available-height)] w-72 max-w-[calc(100vw-1rem)] min-w-0 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 text-slate-900 shadow-lg',
          className,
        )}
        {...props}
      />
    </DM.Portal>
  )
}

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof DM.Item>) {
  return (
    <DM.Item
      className={cn(
        'flex min-h-10 cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-800 outline-none select-none data-[disabled]:pointer-events-none data-[disabled]:opacity-60 data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-slate-500',
        className,
      )}
      {...props}
    />
  )
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof DM.Label>) {
  return (
    <DM.Label
      className={cn('min-w-0 px-3 py-2 text-sm [overflow-wrap:anywhere]', className)}
      {...props}
    />
  )
}

export function DropdownMenuSeparator({
  className,
  ...props
}: ComponentProps<typeof DM.Separator>) {
  return <DM.Separator className={cn('-mx-1 my-1 h-px bg-slate-200', className)} {...props} />
}
