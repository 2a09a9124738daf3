import { type ReactNode, useEffect } from 'react'
import { usePageMeta } from '../use-page-meta'
import { MarketingFooter } from './marketing-footer'
import { MarketingHeader } from './marketing-header'

/** The signed-out frame: skip link, header, the page and the footer. */
export function MarketingLayout({ children }: { children: ReactNode }) {
  usePageMeta()
  useEffect(() => {
    // Arriving at /#features from another page: the section exists only after render.
    const id = decodeURIComponent(window.location.hash.slice(1))
    if (id) document.getElementById(id)?.scrollIntoView()
  }, [])
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-medium text-brand-800 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <MarketingHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      <MarketingFooter />
    </div>
  )
}
