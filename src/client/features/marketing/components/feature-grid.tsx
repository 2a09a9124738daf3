import {
  CalendarCheck,
  ChartNoAxesCombined,
  MessagesSquare,
  ReceiptIndianRupee,
  Target,
  UsersRound,
} from 'lucide-react'
import type { ComponentType, SVGProps } from 'react'
import { type FeatureIcon, features } from '../content'
import { HelpTooltip } from './help-tooltip'

const icons: Record<FeatureIcon, ComponentType<SVGProps<SVGSVGElement>>> = {
  leads: Target,
  patients: UsersRound,
  appointments: CalendarCheck,
  billing: ReceiptIndianRupee,
  messaging: MessagesSquare,
  analytics: ChartNoAxesCombined,
}

/** Six feature cards, each with a help tooltip (spec section 2). */
export function FeatureGrid() {
  return (
    <section
      id="features"
      aria-labelledby="features-title"
      className="scroll-mt-16 bg-white py-16 sm:py-20"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Features</p>
          <h2
            id="features-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            One platform from first enquiry to final bill
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Stop juggling spreadsheets, WhatsApp groups and registers. Your whole front office works
            from one screen.
          </p>
        </div>
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((feature) => {
            const Icon = icons[feature.icon]
            return (
              <li
                key={feature.title}
                className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition-shadow hover:shadow-md sm:p-6"
              >
                <div className="grid grid-cols-[auto_1fr_auto] items-center gap-x-3">
                  <span className="grid size-11 place-items-center rounded-xl bg-brand-50 text-brand-700">
                    <Icon className="size-6" aria-hidden="true" />
                  </span>
                  <h3 className="text-lg font-semibold text-slate-900 sm:col-span-3 sm:row-start-2 sm:mt-4">
                    {feature.title}
                  </h3>
                  <span className="sm:col-start-3 sm:row-start-1 sm:self-start">
                    <HelpTooltip topic={feature.title}>{feature.help}</HelpTooltip>
                  </span>
                </div>
                <p className="mt-3 text-[15px] leading-relaxed text-slate-600 sm:mt-2">
                  {feature.text}
                </p>
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}
