import { ArrowLeft } from 'lucide-react'
import { Link } from 'wouter'
import { paths } from '@/client/paths'
import { addOnCategories, SUPPORT_RESPONSE_TIME } from '@/shared/plans'
import { AddOnCategoryCard } from './components/add-on-category-card'
import { ClosingCta } from './components/closing-cta'
import { MarketingLayout } from './components/marketing-layout'

/** /add-ons (spec section 2): the four categories with every add-on and its price. */
export function AddOnsPage() {
  return (
    <div className="space-y-12 sm:space-y-16">
      <div>
        <Link
          href={paths.home}
          className="inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-700 hover:underline"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to Home
        </Link>
        <div className="mx-auto mt-6 max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Add-ons</p>
          <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            Professional Add-ons & Services
          </h1>
          <p className="mt-4 text-lg text-slate-600">
            Creative, technical, training and growth services from our healthcare specialists, on
            any plan, priced in rupees.
          </p>
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        {addOnCategories.map((category) => (
          <AddOnCategoryCard key={category.id} category={category} />
        ))}
      </div>
      <ClosingCta
        inset
        source="add-ons"
        title="Not sure which services you need?"
        text={`Tell us about your clinic and we will suggest a plan. We respond within ${SUPPORT_RESPONSE_TIME}.`}
      />
    </div>
  )
}

/** /add-ons for a signed-out visitor: the same page in the marketing frame. */
export function PublicAddOnsPage() {
  return (
    <MarketingLayout>
      <div className="bg-gradient-to-b from-brand-50 to-white to-40%">
        <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
          <AddOnsPage />
        </div>
      </div>
    </MarketingLayout>
  )
}
