/** The Arogya CRM mark and name. The mark is drawn inline: no image request. */
export function Logo({ inverse = false }: { inverse?: boolean }) {
  return (
    <span className="inline-flex items-center gap-1.5 sm:gap-2">
      <svg viewBox="0 0 32 32" className="size-7 shrink-0 sm:size-8" aria-hidden="true">
        <rect width="32" height="32" rx="8" className={inverse ? 'fill-white' : 'fill-brand-700'} />
        <path
          d="M6 17h5l2.5-6 4 11 3-7.5 1.5 2.5H26"
          fill="none"
          strokeWidth="2.4"
          strokeLinecap="round"
          strokeLinejoin="round"
          className={inverse ? 'stroke-brand-700' : 'stroke-white'}
        />
      </svg>
      <span
        className={`text-[15px] font-bold tracking-tight whitespace-nowrap sm:text-lg ${inverse ? 'text-white' : 'text-slate-900'}`}
      >
        Arogya<span className={inverse ? 'text-brand-100' : 'text-brand-700'}> CRM</span>
      </span>
    </span>
  )
}
