import { Copy } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { toast } from '@/client/lib/toast'
import type { VoiceSettingsView } from '@/shared/schemas/voice-settings'

async function copy(text: string, label: string) {
  try {
    await navigator.clipboard.writeText(text)
    toast.success('Copied', `${label} is on the clipboard.`)
  } catch {
    toast.error('Could not copy', 'Select the address and copy it by hand.')
  }
}

/**
 * The saved provider's callback address (Exotel's carries the hospital's secret token: only
 * admins see it), with a Copy button.
 */
export function VoiceCallbackUrls({ saved }: { saved: VoiceSettingsView }) {
  const urls = saved.callbackUrls
  const rows: { label: string; url: string; help: string }[] = []
  if (urls?.exotelStatus)
    rows.push({
      label: 'Exotel StatusCallback URL',
      url: urls.exotelStatus,
      help: 'Each call gives Exotel this address itself. Paste it where an Exotel flow (for example a Passthru applet on your ExoPhone) asks for a status callback. Keep it private: it carries your hospital’s token.',
    })
  if (urls?.twilioVoice)
    rows.push({
      label: 'Twilio voice URL',
      url: urls.twilioVoice,
      help: 'Each call gives Twilio this address itself. Paste it as the number’s status callback in the Twilio Console if you use one; Twilio signs every request with your auth token.',
    })
  if (!rows.length) return null
  return (
    <section aria-labelledby="voice-callback-urls" className="space-y-2">
      <h4 id="voice-callback-urls" className="text-sm font-semibold">
        Callback address
      </h4>
      <dl className="space-y-3 text-sm">
        {rows.map((r) => (
          <div key={r.label} className="min-w-0 space-y-1">
            <dt className="text-slate-700">{r.label}</dt>
            <dd className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-start">
              <code className="min-w-0 flex-1 rounded bg-slate-100 px-1 py-0.5 break-all text-slate-800">
                {r.url}
              </code>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => void copy(r.url, r.label)}
              >
                <Copy aria-hidden="true" />
                Copy<span className="sr-only"> {r.label}</span>
              </Button>
            </dd>
            <dd className="text-xs text-slate-600">{r.help}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
