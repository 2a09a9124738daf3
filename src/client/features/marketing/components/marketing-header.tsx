import { Link } from 'wouter'
import { paths, serverPaths } from '@/client/paths'
import { Logo } from './logo'

const navLink =
  'rounded-md px-1 py-2 text-[13px] font-medium whitespace-nowrap text-slate-700 hover:text-brand-800 sm:px-3 sm:text-sm'

/** Spec section 2: Features, Add-ons (to /add-ons) and Sign In (to /api/login). */
export function MarketingHeader() {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-1 px-3 sm:px-6">
        <Link href={paths.home} className="rounded-md" aria-label="Arogya CRM home">
          <Logo />
        </Link>
        <nav aria-label="Site" className="flex items-center sm:gap-2">
          <a href={`${paths.home}#features`} className={navLink}>
            Features
          </a>
          <Link href={paths.addOns} className={navLink}>
            Add-ons
          </Link>
          <a
            href={serverPaths.login}
            className="ml-1 inline-flex h-9 items-center rounded-lg bg-brand-700 px-2.5 text-[13px] font-semibold whitespace-nowrap text-white shadow-sm hover:bg-brand-800 sm:px-4 sm:text-sm"
          >
            Sign In
          </a>
        </nav>
      </div>
    </header>
  )
}
