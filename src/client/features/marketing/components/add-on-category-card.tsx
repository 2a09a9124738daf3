import { ArrowRight, GraduationCap, Megaphone, Rocket, Wrench } from 'lucide-react'
import { serverPaths } from '@/client/paths'
import type { AddOnCategory } from '@/shared/plans'
import { AddOnPrice } from './add-on-price'
import { ctaClass } from './cta'

const icons: Record<AddOnCategory['name'], typeof Megaphone> = {
  'Marketing & Creative': Megaphone,
  Technical: Wrench,
  'Training & Support': GraduationCap,
  'Growth Acceleration': Rocket,
}

/** One add-on category: every service with its price and a Get Started button to sign-in. */
export function AddOnCategoryCard({ category }: { category: AddOnCategory }) {
  const Icon = icons[category.name]
  const titleId = `category-${category.id}`
  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex items-start gap-4 border-b border-slate-100 p-5 sm:p-6">
        <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700">
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <div>
          <h2 id={titleId} className="text-xl font-bold text-slate-900">
            {category.name}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{category.summary}</p>
        </div>
      </div>
      <ul className="flex-1 divide-y divide-slate-100 px-5 sm:px-6">
        {category.addOns.map((addOn) => (
          <li
            key={addOn.id}
            className="flex flex-col gap-1 py-4 sm:flex-row sm:items-start sm:justify-between sm:gap-6"
          >
            <div>
              <h3 className="font-semibold text-slate-900">{addOn.name}</h3>
              <p className="mt-0.5 text-sm text-slate-600">{addOn.description}</p>
            </div>
            <AddOnPrice addOn={addOn} className="text-sm sm:pt-0.5 sm:text-right" />
          </li>
        ))}
      </ul>
      <div className="p-5 pt-2 sm:p-6 sm:pt-2">
        <a href={serverPaths.login} className={ctaClass('primary', 'md', 'w-full')}>
          Get Started<span className="sr-only"> with {category.name}</span>
          <ArrowRight aria-hidden="true" />
        </a>
      </div>
    </section>
  )
}
