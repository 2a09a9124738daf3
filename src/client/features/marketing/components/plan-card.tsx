import { Check } from 'lucide-react'
import { serverPaths } from '@/client/paths'
import { formatRupees } from '@/shared/money'
import type { BillingCycle, Plan, PlanPrice } from '@/shared/plans'
import { ctaClass } from './cta'

const ribbonTone = {
  'Most Popular': 'bg-brand-700 text-white',
  'Best Value': 'bg-amber-400 text-slate-900',
} as const

function PriceBlock({ price, cycle }: { price: PlanPrice; cycle: BillingCycle }) {
  const perMonth = cycle === 'annual' ? price.annualMonthly : price.monthly
  return (
    <div className="mt-5">
      <p className="text-sm text-slate-500">
        <span className="sr-only">List price </span>
        <s>{formatRupees(price.list)}</s>
        <span aria-hidden="true"> /month</span>
      </p>
      <p className="mt-1 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight text-slate-900">
          {formatRupees(perMonth)}
        </span>
        <span className="text-sm font-medium text-slate-600">/month</span>
      </p>
      {cycle === 'annual' ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Billed annually, {formatRupees(perMonth * 12)} a year
          </p>
          <p className="mt-1 text-sm font-semibold text-emerald-700">
            You save {formatRupees(price.annualSaving)} a year
          </p>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">Billed monthly</p>
      )}
    </div>
  )
}

/** One priced plan: ribbon, struck-out list price, price for the cycle, trial button, features. */
export function PlanCard({
  plan,
  cycle,
}: {
  plan: Plan & { price: PlanPrice }
  cycle: BillingCycle
}) {
  const titleId = `plan-${plan.id}`
  const highlighted = plan.ribbon === 'Most Popular'
  return (
    <article
      aria-labelledby={titleId}
      className={`relative flex flex-col rounded-2xl bg-white p-6 shadow-sm border ${highlighted ? 'border-brand-700 shadow-lg ring-1 ring-brand-700' : 'border-slate-200'}`}
    >
      {plan.ribbon ? (
        <p
          className={`absolute -top-3.5 left-6 rounded-full px-3 py-1 text-xs font-bold tracking-wide ${ribbonTone[plan.ribbon]}`}
        >
          {plan.ribbon}
        </p>
      ) : null}
      <h3 id={titleId} className="text-xl font-bold text-slate-900 xl:text-lg">
        {plan.name}
      </h3>
      <p className="mt-1 min-h-10 text-sm text-slate-600">{plan.summary}</p>
      <PriceBlock price={plan.price} cycle={cycle} />
      <a
        href={serverPaths.signup}
        className={ctaClass(highlighted ? 'primary' : 'secondary', 'md', 'mt-6 w-full')}
      >
        Start Free Trial
      </a>
      <ul className="mt-6 space-y-2.5 text-sm text-slate-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
    </article>
  )
}
