import type { HTMLAttributes } from 'react'
import { cn } from '@/client/lib/cn'

/**
 * A bordered panel. It may shrink inside a flex or grid parent (min-w-0) and breaks a long
 * unbroken word (an email, a URL) where it must, so no content widens the page.
 */
export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn(
        'min-w-0 rounded-lg border border-slate-200 bg-white shadow-sm [overflow-wrap:anywhere]',
        className,
      )}
      {...props}
    />
  )
}

export function CardHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex min-w-0 flex-col gap-1.5 p-5 pb-3', className)} {...props} />
}

export function CardTitle({ className, ...props }: HTMLAttributes<HTMLHeadingElement>) {
  return <h3 className={cn('text-lg leading-tight font-semibold', className)} {...props} />
}

export function CardContent({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('min-w-0 p-5 pt-0', className)} {...props} />
}
