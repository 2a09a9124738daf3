import { cva, type VariantProps } from 'class-variance-authority'
import type { HTMLAttributes } from 'react'
import { cn } from '@/client/lib/cn'

const badgeVariants = cva(
  // max-w-full + overflow-wrap: a long unbroken label wraps inside its parent, never widens it.
  'inline-flex max-w-full min-w-0 items-center rounded-full px-2.5 py-0.5 text-xs font-medium [overflow-wrap:anywhere]',
  {
    variants: {
      variant: {
        default: 'bg-brand-100 text-brand-800',
        secondary: 'bg-slate-100 text-slate-700',
        destructive: 'bg-red-100 text-red-800',
        outline: 'border border-slate-300 text-slate-700',
        blue: 'bg-blue-100 text-blue-800',
        pink: 'bg-pink-100 text-pink-800',
        purple: 'bg-purple-100 text-purple-800',
        yellow: 'bg-yellow-100 text-yellow-800',
        green: 'bg-green-100 text-green-800',
      },
    },
    defaultVariants: { variant: 'default' },
  },
)

export function Badge({
  className,
  variant,
  ...props
}: HTMLAttributes<HTMLSpanElement> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />
}
