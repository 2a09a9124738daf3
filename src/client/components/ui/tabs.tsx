import { Tabs as T } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from '@/client/lib/cn'

/** Radix Tabs in the shadcn/ui pattern: arrow keys move between tabs, one panel shows. */
export const Tabs = T.Root

export function TabsList({ className, ...props }: ComponentProps<typeof T.List>) {
  return (
    <T.List
      className={cn(
        'inline-flex max-w-full min-w-0 flex-wrap items-center gap-1 rounded-md bg-slate-100 p-1',
        className,
      )}
      {...props}
    />
  )
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof T.Trigger>) {
  return (
    <T.Trigger
      className={cn(
        'inline-flex h-8 items-center justify-center rounded px-3 text-sm font-medium text-slate-700 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-600/40 focus-visible:outline-none data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  )
}

export function TabsContent({ className, ...props }: ComponentProps<typeof T.Content>) {
  return (
    <T.Content className={cn('mt-3 min-w-0 focus-visible:outline-none', className)} {...props} />
  )
}
