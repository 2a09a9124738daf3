import { footerLists } from '../content'
import { Logo } from './logo'

/** Spec section 2: Product, Support and Company lists of plain text. */
export function MarketingFooter() {
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-12 sm:px-6 md:grid-cols-[1.4fr_repeat(3,1fr)]">
        <div className="col-span-2 space-y-3 md:col-span-1">
          <Logo inverse />
          <p className="max-w-xs text-sm leading-relaxed text-slate-300">
            The AI-integrated CRM for clinics, hospitals and healthcare professionals across India.
          </p>
        </div>
        {footerLists.map((list) => (
          <div key={list.title}>
            <h2 className="text-sm font-semibold tracking-wide text-white">{list.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {list.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs text-slate-400 sm:px-6">
          © {new Date().getFullYear()} Arogya CRM. Prices in Indian rupees (₹), exclusive of taxes.
        </p>
      </div>
    </footer>
  )
}
