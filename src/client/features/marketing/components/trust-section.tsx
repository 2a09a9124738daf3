import { Headset, MapPin, ShieldCheck } from 'lucide-react'
import { trustBlurbs } from '../content'

const icons = [ShieldCheck, MapPin, Headset] as const

/** Three trust blurbs (spec section 2). */
export function TrustSection() {
  return (
    <section aria-labelledby="trust-title" className="bg-slate-50 py-16 sm:py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2
          id="trust-title"
          className="text-center text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
        >
          Why clinics trust Arogya CRM
        </h2>
        <ul className="mt-12 grid gap-8 md:grid-cols-3">
          {trustBlurbs.map((blurb, i) => {
            const Icon = icons[i] ?? ShieldCheck
            return (
              <li key={blurb.title} className="flex gap-4">
                <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-brand-700 text-white shadow-sm">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-slate-900">{blurb.title}</h3>
                  <p className="mt-1.5 leading-relaxed text-slate-600">{blurb.text}</p>
                </div>
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}
