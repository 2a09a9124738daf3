import { ArrowRight } from 'lucide-react'
import { serverPaths } from '@/client/paths'
import { ctaClass } from './cta'
import { type DemoSource, ScheduleDemoButton } from './schedule-demo-button'

/**
 * The closing call to action: Start Free Trial and Schedule Demo on a brand band, full
 * width, or (inset) a rounded panel that also fits inside the staff app.
 */
export function ClosingCta({
  source,
  title,
  text,
  inset = false,
}: {
  source: DemoSource
  title: string
  text: string
  inset?: boolean
}) {
  return (
    <section
      aria-labelledby="closing-title"
      className={`bg-gradient-to-br from-brand-800 to-teal-900 text-white ${inset ? 'rounded-3xl px-2 py-12' : 'py-16 sm:py-20'}`}
    >
      <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
        <h2 id="closing-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          {title}
        </h2>
        <p className="mt-4 text-lg text-brand-50">{text}</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <a href={serverPaths.signup} className={ctaClass('inverse', 'lg')}>
            Start Free Trial
            <ArrowRight aria-hidden="true" />
          </a>
          <ScheduleDemoButton source={source} variant="outlineInverse" />
        </div>
      </div>
    </section>
  )
}
