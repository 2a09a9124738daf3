import { createCampaignInput, type Campaign } from '@/shared/schemas/campaigns'
import type { CampaignType } from '@/shared/campaign-labels'
import { paiseToRupees, RUPEES_MESSAGE, rupeesToPaise } from '../campaign-format'

export interface AudienceRow {
  key: string
  value: string
}

export interface CampaignFormValues {
  name: string
  type: CampaignType
  budget: string
  startDate: string
  endDate: string
  leadCampaign: string
  metaFormId: string
  utmCampaign: string
  audience: AudienceRow[]
}

export function formValuesOf(c: Campaign | null, today: string): CampaignFormValues {
  if (!c)
    return {
      name: '',
      type: 'facebook',
      budget: '',
      startDate: today,
      endDate: '',
      leadCampaign: '',
      metaFormId: '',
      utmCampaign: '',
      audience: [{ key: '', value: '' }],
    }
  return {
    name: c.name,
    type: c.type,
    budget: paiseToRupees(c.budget),
    startDate: c.startDate,
    endDate: c.endDate ?? '',
    leadCampaign: c.leadCampaign === c.name ? '' : c.leadCampaign,
    metaFormId: c.metaFormId ?? '',
    utmCampaign: c.utmCampaign ?? '',
    audience: Object.entries(c.targetAudience).map(([key, v]) => ({
      key,
      value: Array.isArray(v) ? v.join(', ') : v,
    })),
  }
}

/** A value with commas is a list ('Pune, Mumbai' → ['Pune', 'Mumbai']). */
function audienceOf(rows: AudienceRow[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const r of rows) {
    if (r.key.trim() === '' && r.value.trim() === '') continue
    const parts = r.value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
    out[r.key.trim()] = parts.length > 1 ? parts : r.value.trim()
  }
  return out
}

/** The body the server takes, or the field errors the shared schema finds first. */
export function toInput(
  v: CampaignFormValues,
): { ok: true; body: Record<string, unknown> } | { ok: false; errors: Record<string, string> } {
  const budget = rupeesToPaise(v.budget)
  const body = {
    name: v.name,
    type: v.type,
    budget: budget ?? -1,
    startDate: v.startDate,
    endDate: v.endDate || null,
    targetAudience: audienceOf(v.audience),
    leadCampaign: v.leadCampaign,
    metaFormId: v.metaFormId,
    utmCampaign: v.utmCampaign,
  }
  const errors: Record<string, string> = {}
  if (budget === null) errors.budget = RUPEES_MESSAGE
  const parsed = createCampaignInput.safeParse(body)
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key =
        issue.path[0] === 'targetAudience' ? 'targetAudience' : String(issue.path[0] ?? '')
      errors[key] ??= issue.message
    }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, body }
}
