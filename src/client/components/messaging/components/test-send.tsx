import { CheckCircle2, Send, TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import type { MessageChannel } from '@/shared/messaging'
import { useTestMessaging } from '../api/test-messaging'
import { channelLabels } from '../message-rules'
import type { MessagingTestResult } from '../types'

const placeholders: Record<MessageChannel, string> = {
  whatsapp: '+91 98765 43210',
  sms: '+91 98765 43210',
  email: 'you@example.in',
}

/** Test WhatsApp / SMS / Email: a real send to what the admin types, and the provider's answer. */
export function TestSend({ channel }: { channel: MessageChannel }) {
  const [to, setTo] = useState('')
  const [answer, setAnswer] = useState<MessagingTestResult | { error: string } | null>(null)
  const test = useTestMessaging()
  const label = channelLabels[channel]
  const id = `test-${channel}-to`

  async function run() {
    setAnswer(null)
    try {
      setAnswer(await test.mutateAsync({ channel, to: to.trim() }))
    } catch (error) {
      setAnswer({
        error: error instanceof ApiError ? error.serverMessage : 'The test could not be sent.',
      })
    }
  }

  return (
    <div className="min-w-0 space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {channel === 'email' ? 'Test email address' : `Test ${label} number`}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          type={channel === 'email' ? 'email' : 'tel'}
          value={to}
          placeholder={placeholders[channel]}
          onChange={(e) => setTo(e.target.value)}
        />
        <Button
          type="button"
          variant="outline"
          onClick={() => void run()}
          loading={test.isPending}
          loadingText="Sending..."
          disabled={!to.trim()}
        >
          <Send aria-hidden="true" />
          Test {label}
        </Button>
      </div>
      {answer ? (
        <p
          role="status"
          aria-label={`Test ${label} result`}
          className={`flex items-start gap-2 text-sm ${'error' in answer || !answer.ok ? 'text-red-700' : 'text-slate-800'}`}
        >
          {'error' in answer || !answer.ok ? (
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          ) : (
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
          )}
          <span>
            {'error' in answer
              ? answer.error
              : answer.sandbox
                ? // The sandbox's own words say what happened ("Sandbox: the message was not sent…").
                  answer.detail
                : `${answer.ok ? 'Accepted' : 'Refused'} by ${answer.provider}: ${answer.detail}${answer.providerMessageId ? ` (message id ${answer.providerMessageId})` : ''}`}
          </span>
        </p>
      ) : null}
    </div>
  )
}
