import { ClipboardCheck, Copy } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'

/** Copies text to the clipboard and says whether it worked (announced to screen readers). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [result, setResult] = useState<'copied' | 'failed' | null>(null)

  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      setResult('copied')
    } catch {
      setResult('failed')
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
        {result === 'copied' ? <ClipboardCheck aria-hidden="true" /> : <Copy aria-hidden="true" />}
        {label}
      </Button>
      <span role="status" className="text-xs text-slate-600">
        {result === 'copied'
          ? 'Copied'
          : result === 'failed'
            ? 'Copy failed: select the text instead.'
            : ''}
      </span>
    </div>
  )
}
