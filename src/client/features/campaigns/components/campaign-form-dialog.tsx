import { Plus, Trash2 } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { type CampaignType, campaignTypeLabels, campaignTypes } from '@/shared/campaign-labels'
import type { Campaign, CreateCampaignInput } from '@/shared/schemas/campaigns'
import { useSaveCampaign } from '../api/save-campaign'
import { type CampaignFormValues, formValuesOf, toInput } from './campaign-form'

function CampaignForm({
  campaign,
  today,
  onClose,
}: {
  campaign: Campaign | null
  today: string
  onClose: () => void
}) {
  const [v, setV] = useState<CampaignFormValues>(() => formValuesOf(campaign, today))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useSaveCampaign()
  const set = <K extends keyof CampaignFormValues>(k: K, value: CampaignFormValues[K]) =>
    setV((old) => ({ ...old, [k]: value }))
  const setRow = (i: number, field: 'key' | 'value', value: string) =>
    set(
      'audience',
      v.audience.map((r, j) => (j === i ? { ...r, [field]: value } : r)),
    )

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const result = toInput(v)
    if (!result.ok) return setErrors(result.errors)
    setErrors({})
    try {
      await save.mutateAsync({
        id: campaign?.id ?? null,
        input: result.body as CreateCampaignInput,
      })
      toast.success(campaign ? 'Campaign updated successfully' : 'Campaign created successfully')
      onClose()
    } catch (error) {
      if (error instanceof ApiError)
        setErrors(
          Object.fromEntries(
            Object.entries(error.fieldErrors).map(([path, m]) => [path.split('.')[0] ?? '', m]),
          ),
        )
      const message = error instanceof ApiError ? error.serverMessage : String(error)
      toast.error(campaign ? 'Failed to update campaign' : 'Failed to create campaign', message)
    }
  }

  const text = (id: keyof CampaignFormValues, label: string, hint?: string, required = false) => (
    <Field
      id={`campaign-${id}`}
      label={label}
      required={required}
      error={errors[id]}
      {...(hint ? { hint } : {})}
    >
      <Input
        id={`campaign-${id}`}
        value={v[id] as string}
        onChange={(e) => set(id, e.target.value)}
        aria-invalid={Boolean(errors[id])}
        autoComplete="off"
      />
    </Field>
  )

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      {text('name', 'Campaign name', undefined, true)}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="campaign-type" label="Type" required error={errors.type}>
          <NativeSelect
            id="campaign-type"
            value={v.type}
            onChange={(e) => set('type', e.target.value as CampaignType)}
          >
            {campaignTypes.map((t) => (
              <option key={t} value={t}>
                {campaignTypeLabels[t]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {text('budget', 'Budget (₹)', undefined, true)}
        <Field id="campaign-startDate" label="Start date" required error={errors.startDate}>
          <Input
            id="campaign-startDate"
            type="date"
            value={v.startDate}
            onChange={(e) => set('startDate', e.target.value)}
          />
        </Field>
        <Field id="campaign-endDate" label="End date" error={errors.endDate}>
          <Input
            id="campaign-endDate"
            type="date"
            value={v.endDate}
            onChange={(e) => set('endDate', e.target.value)}
          />
        </Field>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Target audience</legend>
        {v.audience.map((row, i) => (
          <div key={i} className="flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1 basis-28">
              <label className="sr-only" htmlFor={`aud-key-${i}`}>
                Audience key {i + 1}
              </label>
              <Input
                id={`aud-key-${i}`}
                placeholder="age"
                value={row.key}
                maxLength={40}
                onChange={(e) => setRow(i, 'key', e.target.value)}
              />
            </div>
            <div className="min-w-0 flex-[2] basis-40">
              <label className="sr-only" htmlFor={`aud-value-${i}`}>
                Audience value {i + 1}
              </label>
              <Input
                id={`aud-value-${i}`}
                placeholder="25-45 (commas make a list)"
                value={row.value}
                onChange={(e) => setRow(i, 'value', e.target.value)}
              />
            </div>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Remove audience row ${i + 1}`}
              onClick={() =>
                set(
                  'audience',
                  v.audience.filter((_, j) => j !== i),
                )
              }
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        ))}
        {errors.targetAudience ? (
          <p role="alert" className="text-xs text-red-600">
            {errors.targetAudience}
          </p>
        ) : null}
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={v.audience.length >= 20}
          onClick={() => set('audience', [...v.audience, { key: '', value: '' }])}
        >
          <Plus aria-hidden="true" /> Add audience row
        </Button>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        {text(
          'leadCampaign',
          "Leads' campaign text",
          "The campaign text leads carry; defaults to the campaign's name",
        )}
        {text('metaFormId', 'Meta lead form id', 'Leads from this lead-ads form count here')}
        {text('utmCampaign', 'UTM campaign tag')}
      </div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending} loadingText="Saving...">
          {campaign ? 'Save Changes' : 'Create Campaign'}
        </Button>
      </div>
    </form>
  )
}

/** New Campaign and Edit Campaign: one dialog (campaign null: new). */
export function CampaignFormDialog({
  open,
  campaign,
  today,
  onClose,
}: {
  open: boolean
  campaign: Campaign | null
  today: string
  onClose: () => void
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (o ? null : onClose())}
      title={campaign ? 'Edit Campaign' : 'New Campaign'}
    >
      {open ? (
        <CampaignForm
          key={campaign?.id ?? 'new'}
          campaign={campaign}
          today={today}
          onClose={onClose}
        />
      ) : null}
    </Dialog>
  )
}
