/** A drawn glimpse of the lead dashboard for wide screens. Decorative: the page text says it all. */
const leads = [
  {
    name: 'Priya Sharma',
    need: 'Dental implants',
    source: 'Instagram',
    status: 'New',
    tone: 'bg-sky-100 text-sky-800',
  },
  {
    name: 'Rahul Verma',
    need: 'Knee consultation',
    source: 'Facebook',
    status: 'Follow-up',
    tone: 'bg-amber-100 text-amber-900',
  },
  {
    name: 'Ananya Iyer',
    need: 'IVF counselling',
    source: 'Google Ads',
    status: 'Converted',
    tone: 'bg-emerald-100 text-emerald-800',
  },
  {
    name: 'Mohammed Khan',
    need: 'Cataract surgery',
    source: 'Referral',
    status: 'Contacted',
    tone: 'bg-violet-100 text-violet-800',
  },
]

const stats = [
  { label: 'New leads today', value: '24' },
  { label: 'Follow-ups due', value: '9' },
  { label: 'Booked', value: '7' },
]

export function HeroPreview() {
  return (
    <div aria-hidden="true" className="relative hidden lg:block">
      <div className="absolute -inset-6 -z-10 rounded-[2rem] bg-gradient-to-br from-brand-100 to-sky-50 blur-2xl" />
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl">
        <div className="flex items-center gap-1.5 border-b border-slate-100 bg-slate-50 px-4 py-3">
          <span className="size-2.5 rounded-full bg-red-300" />
          <span className="size-2.5 rounded-full bg-amber-300" />
          <span className="size-2.5 rounded-full bg-emerald-300" />
          <span className="ml-3 text-xs font-medium text-slate-600">Lead Management Dashboard</span>
        </div>
        <div className="grid grid-cols-3 gap-3 p-4">
          {stats.map((s) => (
            <div key={s.label} className="rounded-xl bg-brand-50 p-3">
              <p className="text-2xl font-bold text-brand-800">{s.value}</p>
              <p className="text-xs font-medium text-slate-700">{s.label}</p>
            </div>
          ))}
        </div>
        <ul className="divide-y divide-slate-100 px-4 pb-2">
          {leads.map((lead) => (
            <li key={lead.name} className="flex items-center gap-3 py-3">
              <span className="grid size-9 shrink-0 place-items-center rounded-full bg-slate-100 text-sm font-semibold text-slate-700">
                {lead.name
                  .split(' ')
                  .map((p) => p[0])
                  .join('')}
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-semibold text-slate-900">
                  {lead.name}
                </span>
                <span className="block truncate text-xs text-slate-600">
                  {lead.need} · {lead.source}
                </span>
              </span>
              <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${lead.tone}`}>
                {lead.status}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
