import { ArrowRight } from 'lucide-react'
import { Link } from 'wouter'
import { paths } from '@/client/paths'
import { addOnCategories } from '@/shared/plans'
import { AddOnPrice } from './add-on-price'

/** The add-on service price list of /pricing, by category. */
export function AddOnPriceList() {
  return (
    <section aria-labelledby="add-on-prices-title">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2
            id="add-on-prices-title"
            className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
          >
            Add-on services
          </h2>
          <p className="mt-2 text-slate-600">Pay only for what you need, on any plan.</p>
        </div>
        <Link
          href={paths.addOns}
          className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
        >
          View Professional Add-ons & Services
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
      <div className="mt-8 grid gap-6 md:grid-cols-2">
        {addOnCategories.map((category) => (
          <div
            key={category.id}
            className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
          >
            <h3 className="font-semibold text-slate-900">{category.name}</h3>
            <ul className="mt-3 divide-y divide-slate-100 text-sm">
              {category.addOns.map((addOn) => (
                <li key={addOn.id} className="flex items-baseline justify-between gap-3 py-2">
                  <span className="min-w-0 text-slate-700">{addOn.name}</span>
                  <AddOnPrice addOn={addOn} className="shrink-0 text-right text-xs" />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  )
}
