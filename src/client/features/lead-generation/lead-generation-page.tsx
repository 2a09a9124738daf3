import { Plus } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { useCan } from '@/client/lib/current-user'
import { Benefits } from './components/benefits'
import { RequestDialog } from './components/request-dialog'
import { RequestsList } from './components/requests-list'

/**
 * /lead-generation (spec section 2, issue 28, docs/decisions/034): a hospital admin asks the
 * Arogya team to run ads (the request dialog), follows the requests' status, and reads why.
 * Other roles see the benefits only; the server refuses them too (lead-generation:manage).
 */
export function LeadGenerationPage() {
  const canManage = useCan('lead-generation:manage')
  const [requesting, setRequesting] = useState(false)
  return (
    <div className="min-w-0 space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold">Lead Generation</h1>
          <p className="text-sm text-slate-600">
            Let our team run Facebook and Instagram ads that bring new patients to your clinic.
          </p>
        </div>
        {canManage ? (
          <Button onClick={() => setRequesting(true)}>
            <Plus aria-hidden="true" /> Request Campaign
          </Button>
        ) : null}
      </div>
      <p className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
        Lead generation services are included in the Enterprise plan. On other plans our team shares
        a quote before any campaign starts.
      </p>
      <section aria-labelledby="lead-gen-requests" className="space-y-3">
        <h2 id="lead-gen-requests" className="text-lg font-semibold">
          Your Campaigns
        </h2>
        {canManage ? (
          <RequestsList onRequest={() => setRequesting(true)} />
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
            Only your hospital’s admins can request and follow lead-generation campaigns.
          </p>
        )}
      </section>
      <Benefits />
      {canManage ? <RequestDialog open={requesting} onClose={() => setRequesting(false)} /> : null}
    </div>
  )
}
