import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import type { VoiceSettingsView } from '@/shared/schemas/voice-settings'
import { secretHintText, type VoiceForm } from './voice-form'

type TextField = 'accountSid' | 'apiKey' | 'apiToken' | 'authToken' | 'callerId'

interface FieldSpec {
  name: TextField
  label: string
  hint: string
  secret?: boolean
  type?: 'tel'
}

const exotelFields: FieldSpec[] = [
  { name: 'accountSid', label: 'Account SID', hint: 'Exotel dashboard → API settings.' },
  { name: 'apiKey', label: 'API key', hint: 'Exotel dashboard → API settings.' },
  { name: 'apiToken', label: 'API token', hint: '', secret: true },
  {
    name: 'callerId',
    label: 'ExoPhone',
    hint: 'The virtual number patients see, e.g. 080 4711 2233.',
    type: 'tel',
  },
]

const twilioFields: FieldSpec[] = [
  { name: 'accountSid', label: 'Account SID', hint: 'Starts with AC: Twilio Console → Account.' },
  { name: 'authToken', label: 'Auth token', hint: '', secret: true },
  {
    name: 'callerId',
    label: 'Voice number',
    hint: 'A voice-capable number of this Twilio account, with its country code.',
    type: 'tel',
  },
]

/** What a secret field says under it: whether one is saved, and that blank keeps it. */
function secretHint(saved: { set: boolean; last4?: string | null } | undefined): string {
  return saved?.set
    ? `${secretHintText(saved)}. Leave blank to keep it; type a new one to replace it.`
    : 'Not set. Required.'
}

/** The chosen provider's account fields; secrets are write-only with a "Saved (ends 1234)" hint. */
export function VoiceProviderFields({
  form,
  saved,
  errors,
  onChange,
}: {
  form: VoiceForm
  saved: VoiceSettingsView
  /** The last save's field messages by path. */
  errors: Record<string, string>
  onChange: (form: VoiceForm) => void
}) {
  if (form.provider === 'sandbox') return null
  const fields = form.provider === 'exotel' ? exotelFields : twilioFields
  // A secret saved for this provider (switching provider starts its secret anew).
  const stored = saved.provider === form.provider ? saved.account : null
  const id = (name: string) => `voice-${name}`
  return (
    <div className="grid min-w-0 gap-3 sm:grid-cols-2">
      {fields.map((f) => {
        const error = errors[f.name]
        const hint = f.secret ? secretHint(stored?.[f.name as 'apiToken' | 'authToken']) : f.hint
        return (
          <Field key={f.name} id={id(f.name)} label={f.label} error={error} hint={hint}>
            <Input
              id={id(f.name)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id(f.name)}-error` : undefined}
              type={f.secret ? 'password' : (f.type ?? 'text')}
              autoComplete={f.secret ? 'new-password' : 'off'}
              value={form[f.name]}
              onChange={(e) => onChange({ ...form, [f.name]: e.target.value })}
            />
          </Field>
        )
      })}
      {form.provider === 'exotel' ? (
        <Field
          id={id('region')}
          label="Region"
          error={errors.region}
          hint="Where your Exotel account lives: Mumbai for Indian accounts."
        >
          <NativeSelect
            id={id('region')}
            value={form.region}
            onChange={(e) =>
              onChange({ ...form, region: e.target.value === 'singapore' ? 'singapore' : 'mumbai' })
            }
          >
            <option value="mumbai">Mumbai (India)</option>
            <option value="singapore">Singapore</option>
          </NativeSelect>
        </Field>
      ) : null}
    </div>
  )
}
