import { Copy, ExternalLink } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { toast } from '@/client/lib/toast'

/** The clinic's public FAQ page: its address, Copy link and Open (for the website or WhatsApp). */
export function PublicFaqLink({ path }: { path: string }) {
  const full = `${window.location.origin}${path}`
  async function copy() {
    try {
      await navigator.clipboard.writeText(full)
      toast.success('Link copied', full)
    } catch {
      toast.error('Could not copy the link', 'Select it and copy it by hand.')
    }
  }
  return (
    <section
      aria-labelledby="faq-public-link"
      className="min-w-0 space-y-1.5 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="faq-public-link" className="text-sm font-semibold text-slate-800">
        Public FAQ page
      </h2>
      <p className="text-sm text-slate-600">
        Share it on your website or WhatsApp: anyone can read the public FAQs, no sign-in needed.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 rounded bg-slate-100 px-2 py-1 text-sm [overflow-wrap:anywhere]">
          {full}
        </code>
        <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy link
        </Button>
        <a
          href={path}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-sm text-brand-700 underline"
        >
          <ExternalLink className="size-4" aria-hidden="true" />
          Open the FAQ page
        </a>
      </div>
    </section>
  )
}
