import { ClosingCta } from './components/closing-cta'
import { FeatureGrid } from './components/feature-grid'
import { Hero } from './components/hero'
import { MarketingLayout } from './components/marketing-layout'
import { PricingSection } from './components/pricing-section'
import { TrustSection } from './components/trust-section'

/** / signed out (spec section 2, Landing page). */
export function LandingPage() {
  return (
    <MarketingLayout>
      <Hero />
      <FeatureGrid />
      <TrustSection />
      <PricingSection />
      <ClosingCta
        source="landing"
        title="Ready to turn more enquiries into patients?"
        text="Start your free trial today, or book a demo and see Arogya CRM with your own workflow."
      />
    </MarketingLayout>
  )
}
