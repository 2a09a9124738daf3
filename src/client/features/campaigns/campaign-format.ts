import type { CampaignStatus } from '@/shared/campaign-labels'

/** Badge colours of spec §4: active green, paused yellow, completed blue, draft grey. */
export const campaignStatusVariants: Record<
  CampaignStatus,
  'green' | 'yellow' | 'blue' | 'secondary'
> = {
  active: 'green',
  paused: 'yellow',
  completed: 'blue',
  draft: 'secondary',
}

const dateFormat = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Asia/Kolkata',
})
export const formatDate = (iso: string) => dateFormat.format(new Date(iso))
/** A calendar day ('2026-11-02') as '2 Nov 2026'. */
export const formatDay = (day: string) =>
  new Intl.DateTimeFormat('en-IN', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`))

export const countFormat = new Intl.NumberFormat('en-IN')

/** 'key: value' tags, arrays joined by commas (spec §2). */
export function audienceTags(audience: Record<string, string | string[]>): string[] {
  return Object.entries(audience).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`)
}

const RUPEES = /^(\d+|\d{1,3}(,\d{2})*,\d{3}|\d{1,3}(,\d{3})+)(\.\d{0,2})?$/

/** Typed rupees ('1,20,000.50', '₹ 500') to integer paise, or null when not an amount. */
export function rupeesToPaise(text: string): number | null {
  const cleaned = text.replace(/[₹\s]/g, '')
  if (!RUPEES.test(cleaned)) return null
  const [whole = '', fraction = ''] = cleaned.replace(/,/g, '').split('.')
  const paise = Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
  return Number.isSafeInteger(paise) ? paise : null
}

export function paiseToRupees(paise: number): string {
  const whole = Math.trunc(paise / 100)
  const rest = paise % 100
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0')}`
}

export const RUPEES_MESSAGE = 'Enter an amount in rupees, e.g. 50000 or 50,000.50'
