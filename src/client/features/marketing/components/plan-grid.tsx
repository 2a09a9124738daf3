import { Building2, Check } from 'lucide-react'
import { type BillingCycle, type Plan, type PlanPrice, plans } from '@/shared/plans'
import { PlanCard } from './plan-card'
import { type DemoSource, ScheduleDemoButton } from './schedule-demo-button'

const priced = plans.filter((p): p is Plan & { price: PlanPrice } => p.price !== null)
const quoted = plans.filter((p) => p.price === null)

/** The five plans: four priced cards, then Custom Enterprise (by quote) across the row. */
export function PlanGrid({ cycle, source }: { cycle: BillingCycle; source: DemoSource }) {
  return (
    <div className="space-y-6">
      <div className="grid gap-6 pt-4 md:grid-cols-2 xl:grid-cols-4">
        {priced.map((plan) => (
          <PlanCard key={plan.id} plan={plan} cycle={cycle} />
        ))}
      </div>
      {quoted.map((plan) => (
        <article
          key={plan.id}
          aria-labelledby={`plan-${plan.id}`}
          className="flex flex-col gap-6 rounded-2xl border border-slate-200 bg-slate-900 p-6 text-white shadow-sm md:flex-row md:items-center md:justify-between md:p-8"
        >
          <div className="flex gap-4">
            <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-white/10">
              <Building2 className="size-6" aria-hidden="true" />
            </span>
            <div>
              <h3 id={`plan-${plan.id}`} className="text-xl font-bold">
                {plan.name}
              </h3>
              <p className="mt-1 text-slate-300">
                {plan.summary}. <span className="font-semibold text-white">Priced by quote.</span>
              </p>
              <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-1.5 text-sm text-slate-200">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex items-start gap-1.5">
                    <Check className="mt-0.5 size-4 shrink-0 text-brand-100" aria-hidden="true" />
                    {feature}
                  </li>
                ))}
              </ul>
            </div>
          </div>
          <ScheduleDemoButton source={source} variant="inverse" size="md" />
        </article>
      ))}
    </div>
  )
}
