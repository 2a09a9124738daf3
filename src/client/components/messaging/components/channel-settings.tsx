import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import type { MessageChannel } from '@/shared/messaging'
import { channelLabels } from '../message-rules'
import {
  type ChannelForm,
  choiceOf,
  providerChoices,
  secretHintText,
  type SmtpPreset,
  smtpPresets,
} from '../provider-fields'
import type { SecretHint } from '../types'
import { SandboxLabel } from './sandbox-label'

/** One channel's provider and its fields; secrets are write-only with a "set ••••1234" hint. */
export function ChannelSettings({
  channel,
  form,
  secrets,
  savedSandbox,
  errors = {},
  onChange,
}: {
  channel: MessageChannel
  form: ChannelForm
  secrets: Record<string, SecretHint>
  /** The stored set-up still sends to the sandbox (a provider's required field is missing). */
  savedSandbox: boolean
  /** The last save's field messages by path (`whatsapp.settings.phoneNumberId`). */
  errors?: Record<string, string>
  onChange: (form: ChannelForm) => void
}) {
  const choice = choiceOf(channel, form.provider)
  const set = (name: string, value: string | boolean) =>
    onChange({ ...form, values: { ...form.values, [name]: value } })
  const id = (name: string) => `messaging-${channel}-${name}`
  const label = channelLabels[channel]
  return (
    <fieldset className="min-w-0 space-y-3 rounded-lg border border-slate-200 p-4">
      <legend className="px-1 text-base font-semibold">{label}</legend>
      <Field id={id('provider')} label={`${label} provider`}>
        <NativeSelect
          id={id('provider')}
          value={form.provider}
          onChange={(e) => onChange({ ...form, provider: e.target.value })}
        >
          {providerChoices[channel].map((c) => (
            <option key={c.provider} value={c.provider}>
              {c.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {form.provider === 'sandbox' ? (
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <SandboxLabel />
          Messages are not sent to anyone: they show in the Sandbox Outbox and are marked delivered
          after a moment.
        </p>
      ) : savedSandbox ? (
        <p className="flex flex-wrap items-center gap-2 text-sm text-amber-900">
          <SandboxLabel />
          Not complete yet: until every required field is saved, messages go to the Sandbox Outbox.
        </p>
      ) : null}
      {channel === 'sms' && form.provider === 'msg91' ? (
        <p className="rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">
          MSG91 does not pass on replies, so a contact who texts STOP to your sender is not opted
          out here automatically. Staff must record it: open the lead or patient and, under
          Messaging consent, withdraw their SMS consent.
        </p>
      ) : null}
      {form.provider === 'smtp' ? (
        <Field id={id('preset')} label="SMTP preset">
          <NativeSelect
            id={id('preset')}
            value={
              typeof form.values.preset === 'string' && form.values.preset
                ? form.values.preset
                : 'smtp'
            }
            onChange={(e) => {
              const preset = smtpPresets[e.target.value as SmtpPreset]
              onChange({
                ...form,
                values: {
                  ...form.values,
                  preset: e.target.value,
                  ...(preset.host ? { host: preset.host, port: String(preset.port) } : {}),
                },
              })
            }}
          >
            {Object.entries(smtpPresets).map(([key, p]) => (
              <option key={key} value={key}>
                {p.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
      ) : null}
      <div className="grid min-w-0 gap-3 sm:grid-cols-2">
        {choice.fields.map((f) => {
          const value = form.values[f.name]
          const error = errors[`${channel}.${f.secret ? 'secrets' : 'settings'}.${f.name}`]
          if (f.type === 'checkbox')
            return (
              <label key={f.name} className="flex items-center gap-2 text-sm sm:col-span-2">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={value === true}
                  onChange={(e) => set(f.name, e.target.checked)}
                />
                {f.label}
              </label>
            )
          return (
            <Field
              key={f.name}
              id={id(f.name)}
              label={f.label}
              error={error}
              hint={
                f.secret
                  ? `${secretHintText(secrets[f.name])}. Type a new value to replace it.`
                  : f.hint
              }
            >
              <Input
                id={id(f.name)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id(f.name)}-error` : undefined}
                type={
                  f.secret
                    ? 'password'
                    : f.type === 'number'
                      ? 'number'
                      : f.type === 'email'
                        ? 'email'
                        : 'text'
                }
                autoComplete={f.secret ? 'new-password' : 'off'}
                value={typeof value === 'string' ? value : ''}
                onChange={(e) => set(f.name, e.target.value)}
              />
            </Field>
          )
        })}
      </div>
    </fieldset>
  )
}
