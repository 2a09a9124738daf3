import { claims } from '../content'

/** The four outcome claims of spec section 1, as large figures. */
export function ClaimsStrip({ className = '' }: { className?: string }) {
  return (
    <ul
      className={`grid grid-cols-2 gap-px overflow-hidden rounded-2xl border border-slate-200 bg-slate-200 shadow-sm lg:grid-cols-4 ${className}`}
    >
      {claims.stats.map((stat) => (
        <li key={stat.text} className="bg-white px-4 py-5 text-center sm:px-6">
          <p>
            <span className="block text-2xl font-bold tracking-tight text-brand-700 sm:text-3xl">
              {stat.value}
            </span>{' '}
            <span className="mt-1 block text-sm font-medium text-slate-600">{stat.label}</span>
          </p>
        </li>
      ))}
    </ul>
  )
}
