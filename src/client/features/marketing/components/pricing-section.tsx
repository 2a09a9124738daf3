import { ArrowRight } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'wouter'
import { paths } from '@/client/paths'
import type { BillingCycle } from '@/shared/plans'
import { BillingToggle } from './billing-toggle'
import { ctaClass } from './cta'
import { PlanGrid } from './plan-grid'

/** The landing page's pricing: monthly/annual toggle (default monthly), the plans and the add-ons button. */
export function PricingSection() {
  const [cycle, setCycle] = useState<BillingCycle>('monthly')
  return (
    <section
      id="pricing"
      aria-labelledby="pricing-title"
      className="scroll-mt-16 bg-white py-16 sm:py-20"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Pricing</p>
          <h2
            id="pricing-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Plans that grow with your practice
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Transparent prices in rupees. Every plan starts with a free trial.
          </p>
        </div>
        <div className="mt-8">
          <BillingToggle cycle={cycle} onChange={setCycle} annualLabel="Annual" />
        </div>
        <div className="mt-10">
          <PlanGrid cycle={cycle} source="landing" />
        </div>
        <div className="mt-10 flex flex-col items-center gap-4 sm:flex-row sm:justify-center">
          <Link href={paths.addOns} className={ctaClass('secondary', 'lgWrap')}>
            View Professional Add-ons & Services
            <ArrowRight aria-hidden="true" />
          </Link>
          <Link
            href={paths.pricing}
            className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Compare plans in detail
          </Link>
        </div>
      </div>
    </section>
  )
}
