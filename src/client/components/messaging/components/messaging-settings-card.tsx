import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { type MessageChannel, messageChannels } from '@/shared/messaging'
import { useMessagingSettings, useSaveMessagingSettings } from '../api/messaging-settings'
import { type ChannelForm, formOf, payloadOf } from '../provider-fields'
import type { MessagingSettings } from '../types'
import { ChannelSettings } from './channel-settings'
import { TestSend } from './test-send'

const webhookLabels: [keyof MessagingSettings['webhookUrls'], string][] = [
  ['whatsapp', 'Meta WhatsApp webhook (callback URL)'],
  ['twilioStatus', 'Twilio status callback'],
  ['twilioInbound', 'Twilio incoming messages'],
  ['sendgrid', 'SendGrid event webhook'],
]

function SettingsForm({ saved }: { saved: MessagingSettings }) {
  const [forms, setForms] = useState<Record<MessageChannel, ChannelForm>>(() => ({
    whatsapp: formOf(saved, 'whatsapp'),
    sms: formOf(saved, 'sms'),
    email: formOf(saved, 'email'),
  }))
  const save = useSaveMessagingSettings()
  // The server's field messages (e.g. Meta refusing the WhatsApp IDs with this token), by path.
  const [errors, setErrors] = useState<Record<string, string>>({})

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setErrors({})
    try {
      await save.mutateAsync({
        whatsapp: payloadOf('whatsapp', forms.whatsapp),
        sms: payloadOf('sms', forms.sms),
        email: payloadOf('email', forms.email),
      })
      toast.success('Settings saved successfully')
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors)
      toast.error('Error', error instanceof ApiError ? error.serverMessage : 'Failed to save.')
    }
  }

  return (
    <div className="space-y-6">
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        {messageChannels.map((channel) => (
          <ChannelSettings
            key={channel}
            channel={channel}
            form={forms[channel]}
            secrets={saved[channel].secrets}
            savedSandbox={saved[channel].sandbox === true}
            errors={errors}
            onChange={(form) => setForms((f) => ({ ...f, [channel]: form }))}
          />
        ))}
        <div className="flex justify-end">
          <Button type="submit" loading={save.isPending} loadingText="Saving...">
            Save messaging settings
          </Button>
        </div>
      </form>
      <section aria-labelledby="webhook-urls" className="space-y-2">
        <h4 id="webhook-urls" className="text-sm font-semibold">
          Webhook URLs to paste into the providers
        </h4>
        <dl className="space-y-2 text-sm">
          {webhookLabels.map(([key, label]) => (
            <div key={key} className="min-w-0">
              <dt className="text-slate-600">{label}</dt>
              <dd>
                <code className="rounded bg-slate-100 px-1 py-0.5 break-all text-slate-800">
                  {saved.webhookUrls[key]}
                </code>
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="messaging-tests" className="space-y-3">
        <h4 id="messaging-tests" className="text-sm font-semibold">
          Send a test (saved settings)
        </h4>
        {messageChannels.map((channel) => (
          <TestSend key={channel} channel={channel} />
        ))}
      </section>
    </div>
  )
}

/** Settings → Integrations, messaging: WhatsApp, SMS and email providers, webhooks, tests. */
export function MessagingSettingsCard() {
  const query = useMessagingSettings()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Messaging: WhatsApp, SMS and email</CardTitle>
        <p className="text-sm text-slate-600">
          Who carries your messages. Without credentials a channel uses the sandbox. Secrets are
          stored encrypted and never shown again.
        </p>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="min-h-[40rem] space-y-3" aria-label="Loading the messaging settings">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : query.isError ? (
          <div role="alert" className="space-y-2 text-sm text-red-700">
            <p>Failed to load the messaging settings.</p>
            <Button variant="outline" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <SettingsForm key={query.dataUpdatedAt} saved={query.data} />
        )}
      </CardContent>
    </Card>
  )
}
