import { formatRupees } from '@/shared/money'
import { LEAD_GEN_BUDGET_SCALE } from '@/shared/lead-generation'
import type { LeadGenRequest } from '@/shared/schemas/lead-generation'

const count = (n: number) => new Intl.NumberFormat('en-IN').format(n)

/** The figures of one request: budget, expected leads a day and a month, one-time cost. */
export function LeadGenFigures({ request }: { request: LeadGenRequest }) {
  const e = request.expectedLeads
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
      <div className="min-w-0">
        <dt className="text-slate-600">Daily budget</dt>
        <dd className="font-medium">{formatRupees(request.dailyBudget / LEAD_GEN_BUDGET_SCALE)}</dd>
      </div>
      <div className="min-w-0">
        <dt className="text-slate-600">Leads per day</dt>
        <dd className="font-medium">
          {count(e.perDayMin)}–{count(e.perDayMax)}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-slate-600">Leads per month</dt>
        <dd className="font-medium">
          {count(e.perMonthMin)}–{count(e.perMonthMax)}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-slate-600">One-time cost</dt>
        <dd className="font-medium">{formatRupees(request.oneTimeCost)}</dd>
      </div>
    </dl>
  )
}

/** What the request asks for besides the budget, in words. */
export function creativeSummary(r: LeadGenRequest): string {
  const parts = [
    r.hasCreative ? 'Own creative' : r.needsCreative ? 'Professional creative' : null,
    r.hasVideo ? 'Own video' : r.needsVideoEditing ? 'Professional video editing' : null,
  ].filter(Boolean)
  return parts.length ? parts.join(' · ') : 'No creative or video chosen'
}
