/**
 * Class names of the marketing call-to-action links and buttons. Plain strings, not the
 * Button primitive: that pulls class-variance-authority and tailwind-merge into the
 * landing bundle, which must stay small.
 */
const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 [&_svg]:size-4 [&_svg]:shrink-0'

const variants = {
  primary: 'bg-brand-700 text-white shadow-sm hover:bg-brand-800 focus-visible:outline-brand-700',
  secondary:
    'border border-slate-300 bg-white text-slate-900 shadow-sm hover:border-slate-400 hover:bg-slate-50',
  inverse: 'bg-white text-brand-800 shadow-sm hover:bg-brand-50 focus-visible:outline-white',
  outlineInverse: 'border border-white/60 text-white hover:bg-white/10 focus-visible:outline-white',
} as const

const sizes = {
  md: 'h-10 px-4 text-sm whitespace-nowrap',
  lg: 'h-12 px-6 text-base whitespace-nowrap',
  /** Long labels: wraps on narrow screens instead of overflowing. */
  lgWrap: 'min-h-12 px-6 py-2.5 text-center text-base',
} as const

export type CtaVariant = keyof typeof variants
export type CtaSize = keyof typeof sizes

export function ctaClass(
  variant: CtaVariant = 'primary',
  size: CtaSize = 'md',
  extra = '',
): string {
  return `${base} ${variants[variant]} ${sizes[size]} ${extra}`.trim()
}
