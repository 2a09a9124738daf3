import { ArrowRight, BadgeCheck, Sparkles } from 'lucide-react'
import { serverPaths } from '@/client/paths'
import { claims } from '../content'
import { ClaimsStrip } from './claims-strip'
import { ctaClass } from './cta'
import { HeroPreview } from './hero-preview'
import { ScheduleDemoButton } from './schedule-demo-button'

/** Landing hero: the promise, Start Free Trial and Schedule Demo, and the marketing claims. */
export function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-12 pb-12 sm:px-6 sm:pt-16 lg:grid-cols-[1.15fr_1fr] lg:pt-20">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-100 bg-white px-3 py-1 text-sm font-medium text-brand-800 shadow-sm">
            <Sparkles className="size-4" aria-hidden="true" />
            AI-integrated CRM for Indian healthcare
          </p>
          <h1
            id="hero-title"
            className="mt-5 text-4xl leading-[1.1] font-bold tracking-tight text-slate-900 sm:text-5xl"
          >
            Turn every enquiry into a <span className="text-brand-700">booked patient</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-slate-600">
            Patient management, appointment scheduling, billing and claims, WhatsApp, SMS, email and
            voice messaging, campaign analytics and security, in one platform built for clinics and
            hospitals in India.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <a href={serverPaths.signup} className={ctaClass('primary', 'lg')}>
              Start Free Trial
              <ArrowRight aria-hidden="true" />
            </a>
            <ScheduleDemoButton source="landing" />
          </div>
          <p className="mt-5 flex items-center gap-2 text-sm font-medium text-slate-700">
            <BadgeCheck className="size-5 text-brand-700" aria-hidden="true" />
            {claims.trustedBy} · Free trial, no card needed
          </p>
        </div>
        <HeroPreview />
      </div>
      <div className="mx-auto max-w-6xl px-4 pb-4 sm:px-6">
        <h2 className="sr-only">Results our customers see</h2>
        <ClaimsStrip />
      </div>
    </section>
  )
}
