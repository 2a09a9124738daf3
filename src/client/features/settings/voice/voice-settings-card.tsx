import { PhoneCall } from 'lucide-react'
import { useState } from 'react'
import { SandboxLabel } from '@/client/components/messaging/components/sandbox-label'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { formatPhone } from '@/shared/phone-format'
import type { VoiceSettingsView } from '@/shared/schemas/voice-settings'
import { useSaveVoiceSettings, useVoiceSettings } from './api/voice-settings'
import { VoiceCallbackUrls } from './callback-urls'
import { formOf, payloadOf, providerChoices, providerNames, type VoiceForm } from './voice-form'
import { VoiceProviderFields } from './voice-provider-fields'
import { VoiceTestCall } from './voice-test-call'

/** What calls go through now, as saved. */
function SavedStatus({ saved }: { saved: VoiceSettingsView }) {
  if (saved.sandbox)
    return (
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <SandboxLabel plain />
        {saved.provider === 'sandbox'
          ? 'No provider yet: calls are simulated (ringing, answered, no answer, busy) and no phone rings.'
          : 'Not complete yet: until every field is saved, calls are simulated in the sandbox.'}
      </p>
    )
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
      <PhoneCall className="size-4 text-brand-700" aria-hidden="true" />
      Calls go through {providerNames[saved.provider]}; patients see{' '}
      {saved.callerId ? formatPhone(saved.callerId) : 'the hospital’s number'}.
    </p>
  )
}

function VoiceSettingsForm({ saved }: { saved: VoiceSettingsView }) {
  const [form, setForm] = useState<VoiceForm>(() => formOf(saved))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useSaveVoiceSettings()

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setErrors({})
    try {
      // The saved view replaces the query's data, and the form starts again from it.
      await save.mutateAsync(payloadOf(form))
      toast.success('Voice settings saved')
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors)
      toast.error(
        'Voice settings not saved',
        error instanceof ApiError ? error.serverMessage : 'Please try again.',
      )
    }
  }

  return (
    <div className="space-y-6">
      <form onSubmit={(e) => void submit(e)} noValidate className="min-w-0 space-y-4">
        <Field id="voice-provider" label="Voice provider" error={errors.provider}>
          <NativeSelect
            id="voice-provider"
            value={form.provider}
            onChange={(e) =>
              setForm({ ...form, provider: e.target.value as VoiceForm['provider'] })
            }
          >
            {providerChoices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <VoiceProviderFields form={form} saved={saved} errors={errors} onChange={setForm} />
        <fieldset className="min-w-0 space-y-2">
          <legend className="text-sm font-semibold">Calling hours</legend>
          <div className="grid min-w-0 gap-3 sm:grid-cols-2">
            <Field id="voice-hours-start" label="From" error={errors.callingHoursStart}>
              <Input
                id="voice-hours-start"
                type="time"
                value={form.callingHoursStart}
                aria-invalid={errors.callingHoursStart ? true : undefined}
                onChange={(e) => setForm({ ...form, callingHoursStart: e.target.value })}
              />
            </Field>
            <Field id="voice-hours-end" label="Until" error={errors.callingHoursEnd}>
              <Input
                id="voice-hours-end"
                type="time"
                value={form.callingHoursEnd}
                aria-invalid={errors.callingHoursEnd ? true : undefined}
                onChange={(e) => setForm({ ...form, callingHoursEnd: e.target.value })}
              />
            </Field>
          </div>
          <p className="text-xs text-slate-600">
            Calls to leads are refused outside these hours (the hospital’s time zone); the same time
            twice allows any hour. A patient’s own appointment call is never held.
          </p>
        </fieldset>
        <div className="flex items-start gap-3 text-sm">
          <input
            id="voice-recording"
            type="checkbox"
            role="switch"
            className="mt-0.5 size-4 shrink-0"
            aria-describedby="voice-recording-hint"
            checked={form.recordingEnabled}
            onChange={(e) => setForm({ ...form, recordingEnabled: e.target.checked })}
          />
          <div className="min-w-0">
            <label htmlFor="voice-recording" className="font-medium text-slate-800">
              Record answered calls
            </label>
            <p id="voice-recording-hint" className="text-slate-600">
              Off by default. Before recording, the caller must hear a spoken notice such as “This
              call may be recorded for quality and training purposes”: set that greeting in your
              provider’s call flow first. Recordings are heard only by admins and doctors.
            </p>
          </div>
        </div>
        <div className="flex justify-end">
          <Button type="submit" loading={save.isPending} loadingText="Saving...">
            Save voice settings
          </Button>
        </div>
      </form>
      <VoiceCallbackUrls saved={saved} />
      <VoiceTestCall />
    </div>
  )
}

/**
 * Settings → Integrations → Voice (issue 41, admins): the provider click-to-call goes through
 * (the sandbox without one), calling hours, recording, the callback address and a test call.
 */
export function VoiceSettingsCard() {
  const query = useVoiceSettings()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Voice calls</CardTitle>
        <p className="text-sm text-slate-600">
          Click-to-call rings the staff member’s own phone first, then the patient, who sees the
          hospital’s number. Secrets are stored encrypted and never shown again.
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        {query.isPending ? (
          <div role="status" className="space-y-3">
            <span className="sr-only">Loading the voice settings</span>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : query.isError ? (
          <div role="alert" className="space-y-2 text-sm text-red-700">
            <p>Failed to load the voice settings.</p>
            <Button variant="outline" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            <SavedStatus saved={query.data} />
            <VoiceSettingsForm key={query.dataUpdatedAt} saved={query.data} />
          </>
        )}
      </CardContent>
    </Card>
  )
}
