import { BadgeCheck } from 'lucide-react'
import { useState } from 'react'
import { type BillingCycle, SUPPORT_RESPONSE_TIME } from '@/shared/plans'
import { AddOnPriceList } from './components/add-on-price-list'
import { BillingToggle } from './components/billing-toggle'
import { ClaimsStrip } from './components/claims-strip'
import { ClosingCta } from './components/closing-cta'
import { MarketingLayout } from './components/marketing-layout'
import { PlanGrid } from './components/plan-grid'
import { claims } from './content'

/** /pricing (spec section 2): the toggle, five plans, ROI claims, add-on prices and the two calls to action. */
export function PricingPage() {
  const [cycle, setCycle] = useState<BillingCycle>('monthly')
  return (
    <div className="space-y-16 sm:space-y-20">
      <section aria-labelledby="pricing-title">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Pricing</p>
          <h1
            id="pricing-title"
            className="mt-2 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl"
          >
            Simple pricing in rupees
          </h1>
          <p className="mt-4 text-lg text-slate-600">
            From single-doctor clinics to hospital groups. Start with a free trial and change plans
            as you grow.
          </p>
        </div>
        <h2 className="sr-only">Plans</h2>
        <div className="mt-8">
          <BillingToggle cycle={cycle} onChange={setCycle} annualLabel="Yearly" />
        </div>
        <div className="mt-10">
          <PlanGrid cycle={cycle} source="pricing" />
        </div>
        <p className="mt-6 text-center text-sm text-slate-600">
          Prices are per clinic or hospital, exclusive of taxes.
        </p>
      </section>

      <section aria-labelledby="roi-title">
        <div className="mx-auto max-w-2xl text-center">
          <h2
            id="roi-title"
            className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
          >
            An investment that pays for itself
          </h2>
          <p className="mt-3 flex items-center justify-center gap-2 text-slate-600">
            <BadgeCheck className="size-5 text-brand-700" aria-hidden="true" />
            {claims.trustedBy}
          </p>
        </div>
        <ClaimsStrip className="mt-8" />
      </section>

      <AddOnPriceList />

      <ClosingCta
        inset
        source="pricing"
        title="Start your free trial today"
        text={`Questions about plans? Book a demo; our team responds within ${SUPPORT_RESPONSE_TIME}.`}
      />
    </div>
  )
}

/** /pricing for a signed-out visitor: the same page in the marketing frame. */
export function PublicPricingPage() {
  return (
    <MarketingLayout>
      <div className="bg-gradient-to-b from-brand-50 to-white to-40%">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
          <PricingPage />
        </div>
      </div>
    </MarketingLayout>
  )
}
