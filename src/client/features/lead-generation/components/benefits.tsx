import { BarChart3, Clock, Palette, Users } from 'lucide-react'

const benefits = [
  {
    icon: Users,
    title: 'Patients who are looking for you',
    text: 'Ads on Facebook and Instagram reach people near your clinic who need your services.',
  },
  {
    icon: Clock,
    title: 'Leads straight into your CRM',
    text: 'Every enquiry lands in Leads with its source, so your front desk can call back within minutes.',
  },
  {
    icon: Palette,
    title: 'Professional creatives',
    text: 'Our designers and video editors make ads in English and your patients’ language.',
  },
  {
    icon: BarChart3,
    title: 'Clear results',
    text: 'See leads, conversions and cost per lead for every campaign you run with us.',
  },
]

/** Why a clinic would ask us to run its ads (spec section 2: the benefits section). */
export function Benefits() {
  return (
    <section aria-labelledby="lead-gen-benefits" className="space-y-3">
      <h2 id="lead-gen-benefits" className="text-lg font-semibold">
        Why run lead generation with Arogya
      </h2>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {benefits.map((b) => (
          <li key={b.title} className="flex gap-3 rounded-lg border border-slate-200 bg-white p-4">
            <b.icon className="size-6 shrink-0 text-brand-700" aria-hidden="true" />
            <div className="min-w-0">
              <h3 className="font-medium">{b.title}</h3>
              <p className="text-sm text-slate-600">{b.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
