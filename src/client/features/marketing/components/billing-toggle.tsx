import { useId } from 'react'
import { ANNUAL_SAVING_BADGE, type BillingCycle } from '@/shared/plans'

/**
 * Monthly or annual billing (spec section 4, default monthly) as two native radios styled
 * as a segmented switch: arrow keys and screen readers work as for any radio group.
 */
export function BillingToggle({
  cycle,
  onChange,
  annualLabel,
}: {
  cycle: BillingCycle
  onChange: (cycle: BillingCycle) => void
  annualLabel: 'Annual' | 'Yearly'
}) {
  const name = useId()
  const options: [BillingCycle, string][] = [
    ['monthly', 'Monthly'],
    ['annual', annualLabel],
  ]
  return (
    <div className="flex flex-wrap items-center justify-center gap-3">
      <fieldset className="inline-flex rounded-full bg-slate-100 p-1 ring-1 ring-slate-200">
        <legend className="sr-only">Billing period</legend>
        {options.map(([value, label]) => (
          <label key={value} className="relative">
            <input
              type="radio"
              name={name}
              value={value}
              checked={cycle === value}
              onChange={() => onChange(value)}
              className="peer absolute inset-0 z-10 cursor-pointer appearance-none rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            />
            <span className="block rounded-full px-5 py-2 text-sm font-semibold text-slate-700 transition-colors peer-checked:bg-white peer-checked:text-brand-800 peer-checked:shadow-sm">
              {label}
            </span>
          </label>
        ))}
      </fieldset>
      <span className="rounded-full bg-emerald-100 px-3 py-1 text-xs font-bold text-emerald-800">
        {ANNUAL_SAVING_BADGE}
      </span>
      <p className="sr-only" aria-live="polite">
        {cycle === 'annual'
          ? 'Showing prices with annual billing'
          : 'Showing prices with monthly billing'}
      </p>
    </div>
  )
}
