import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import {
  estimateLeads,
  LEAD_GEN_BUDGET_DEFAULT,
  LEAD_GEN_BUDGET_MAX,
  LEAD_GEN_BUDGET_MIN,
  LEAD_GEN_BUDGET_SCALE,
  LEAD_GEN_BUDGET_STEP,
  oneTimeCostRupees,
  PROFESSIONAL_CREATIVE_RUPEES,
  VIDEO_EDITING_RUPEES,
} from '@/shared/lead-generation'
import { formatRupees } from '@/shared/money'
import { useCreateLeadGenRequest } from '../api/lead-generation-requests'

const count = (n: number) => new Intl.NumberFormat('en-IN').format(n)

interface Options {
  hasCreative: boolean
  needsCreative: boolean
  hasVideo: boolean
  needsVideoEditing: boolean
}

/** Which option clears which (spec section 4: choosing one clears the other). */
const opposite: Record<keyof Options, keyof Options> = {
  hasCreative: 'needsCreative',
  needsCreative: 'hasCreative',
  hasVideo: 'needsVideoEditing',
  needsVideoEditing: 'hasVideo',
}

const optionLabels: Record<keyof Options, string> = {
  hasCreative: 'I have my own ad creative',
  needsCreative: `I need a professional ad creative (${formatRupees(PROFESSIONAL_CREATIVE_RUPEES)})`,
  hasVideo: 'I have my own video',
  needsVideoEditing: `I need professional video editing (${formatRupees(VIDEO_EDITING_RUPEES)})`,
}

function OptionBox({
  name,
  options,
  onToggle,
}: {
  name: keyof Options
  options: Options
  onToggle: (name: keyof Options, checked: boolean) => void
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm hover:bg-slate-50">
      <input
        type="checkbox"
        className="size-4 shrink-0 accent-brand-600"
        checked={options[name]}
        onChange={(e) => onToggle(name, e.target.checked)}
      />
      <span className="min-w-0">{optionLabels[name]}</span>
    </label>
  )
}

function RequestForm({ onClose }: { onClose: () => void }) {
  const [budget, setBudget] = useState(LEAD_GEN_BUDGET_DEFAULT)
  const [options, setOptions] = useState<Options>({
    hasCreative: false,
    needsCreative: false,
    hasVideo: false,
    needsVideoEditing: false,
  })
  const [notes, setNotes] = useState('')
  const create = useCreateLeadGenRequest()
  const estimate = estimateLeads(budget)
  const cost = oneTimeCostRupees(options)

  const toggle = (name: keyof Options, checked: boolean) =>
    setOptions((o) => ({ ...o, [name]: checked, ...(checked ? { [opposite[name]]: false } : {}) }))

  const submit = async () => {
    try {
      await create.mutateAsync({
        dailyBudget: budget * LEAD_GEN_BUDGET_SCALE,
        ...options,
        notes: notes.trim() || null,
      })
      toast.success(
        'Campaign Request Submitted!',
        'Our team will contact you soon to set up your campaign.',
      )
      onClose()
    } catch (e) {
      toast.error(
        'Failed to submit campaign request',
        e instanceof ApiError ? e.serverMessage : undefined,
      )
    }
  }

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <div className="space-y-2">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <label htmlFor="lead-gen-budget" className="text-sm font-medium text-slate-800">
            Daily budget
          </label>
          <output htmlFor="lead-gen-budget" className="text-xl font-bold text-brand-700">
            {formatRupees(budget)}
          </output>
        </div>
        <input
          id="lead-gen-budget"
          type="range"
          min={LEAD_GEN_BUDGET_MIN}
          max={LEAD_GEN_BUDGET_MAX}
          step={LEAD_GEN_BUDGET_STEP}
          value={budget}
          aria-valuetext={`${formatRupees(budget)} a day`}
          onChange={(e) => setBudget(Number(e.target.value))}
          className="h-11 w-full accent-brand-600"
        />
        <div className="flex justify-between text-xs text-slate-600">
          <span>{formatRupees(LEAD_GEN_BUDGET_MIN)}</span>
          <span>{formatRupees(LEAD_GEN_BUDGET_MAX)}</span>
        </div>
      </div>

      <section
        aria-label="Expected leads"
        className="grid grid-cols-1 gap-3 rounded-lg bg-brand-50 p-4 sm:grid-cols-2"
      >
        <div>
          <p className="text-sm text-slate-700">Expected leads per day</p>
          <p className="text-lg font-semibold" data-testid="leads-per-day">
            {count(estimate.perDayMin)}–{count(estimate.perDayMax)}
          </p>
        </div>
        <div>
          <p className="text-sm text-slate-700">Expected leads per month</p>
          <p className="text-lg font-semibold" data-testid="leads-per-month">
            {count(estimate.perMonthMin)}–{count(estimate.perMonthMax)}
          </p>
        </div>
      </section>

      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">Ad creative</legend>
        <OptionBox name="hasCreative" options={options} onToggle={toggle} />
        <OptionBox name="needsCreative" options={options} onToggle={toggle} />
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">Video</legend>
        <OptionBox name="hasVideo" options={options} onToggle={toggle} />
        <OptionBox name="needsVideoEditing" options={options} onToggle={toggle} />
      </fieldset>

      <Field id="lead-gen-notes" label="Notes" hint="Services to promote, areas, languages, timing">
        <Textarea
          id="lead-gen-notes"
          rows={3}
          maxLength={2000}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          placeholder="e.g. Dental implants for patients in Kothrud and Baner, ads in Marathi"
        />
      </Field>

      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-4">
        <p className="text-sm text-slate-700">One-time cost</p>
        <p className="text-lg font-semibold" data-testid="one-time-cost">
          {formatRupees(cost)}
        </p>
      </div>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending} loadingText="Submitting...">
          Submit Request
        </Button>
      </div>
    </form>
  )
}

/** The campaign request dialog (spec section 2, Lead Generation). */
export function RequestDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Request a Lead Generation Campaign"
      description="Set a daily budget and tell us what you need. Our team runs the ads for you."
    >
      {open ? <RequestForm onClose={onClose} /> : null}
    </Dialog>
  )
}
