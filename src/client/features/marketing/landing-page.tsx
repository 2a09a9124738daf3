import { Link } from 'wouter'
import { paths, serverPaths } from '@/client/paths'

/** Placeholder until the marketing site is built. */
export function LandingPage() {
  return (
    <main className="mx-auto max-w-3xl space-y-6 p-8">
      <h1 className="text-3xl font-bold">Arogya CRM</h1>
      <p className="text-slate-600">Patient, lead and appointment management for clinics and hospitals in India.</p>
      <div className="flex gap-3">
        <a className="font-medium text-brand-700 underline" href={serverPaths.login}>Sign In</a>
        <a className="font-medium text-brand-700 underline" href={serverPaths.signup}>Start Free Trial</a>
        <Link className="font-medium text-brand-700 underline" href={paths.pricing}>Pricing</Link>
        <Link className="font-medium text-brand-700 underline" href={paths.addOns}>Add-ons</Link>
      </div>
    </main>
  )
}
