import { CheckCircle2, PhoneCall, TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import type { VoiceTestCallResult } from '@/shared/schemas/voice-settings'
import { useVoiceTestCall } from './api/voice-settings'

/** Test call: rings the number the admin types through the saved provider, and says how it went. */
export function VoiceTestCall() {
  const [phone, setPhone] = useState('')
  const [answer, setAnswer] = useState<VoiceTestCallResult | { error: string } | null>(null)
  const test = useVoiceTestCall()
  const id = 'voice-test-phone'

  async function run() {
    setAnswer(null)
    try {
      setAnswer(await test.mutateAsync({ phone: phone.trim() }))
    } catch (error) {
      setAnswer({
        error:
          error instanceof ApiError
            ? (error.fieldErrors.phone ?? error.serverMessage)
            : 'The test call could not be placed. Check your connection and try again.',
      })
    }
  }

  const failed = answer !== null && 'error' in answer
  return (
    <section aria-labelledby="voice-test-title" className="min-w-0 space-y-2">
      <h4 id="voice-test-title" className="text-sm font-semibold">
        Test call (saved settings)
      </h4>
      <label htmlFor={id} className="block text-sm text-slate-700">
        Mobile number to ring
      </label>
      <form
        className="flex flex-col gap-2 sm:flex-row"
        onSubmit={(e) => {
          e.preventDefault()
          void run()
        }}
      >
        <Input
          id={id}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={phone}
          placeholder="98765 43210"
          onChange={(e) => setPhone(e.target.value)}
        />
        <Button
          type="submit"
          variant="outline"
          loading={test.isPending}
          loadingText="Calling..."
          disabled={!phone.trim()}
        >
          <PhoneCall aria-hidden="true" />
          Test call
        </Button>
      </form>
      {answer ? (
        <p
          role="status"
          aria-label="Test call result"
          className={`flex items-start gap-2 text-sm ${failed ? 'text-red-700' : 'text-slate-800'}`}
        >
          {failed ? (
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          ) : (
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
          )}
          <span className="min-w-0 [overflow-wrap:anywhere]">
            {failed ? answer.error : answer.detail}
          </span>
        </p>
      ) : null}
    </section>
  )
}
