import { formatAgo } from '@/shared/dates'
import { isHonorific } from '@/shared/names'
import type { Lead, LeadPriority, LeadStatus, Stats } from '@/shared/schemas/leads'

export type BadgeVariant =
  'default' | 'secondary' | 'destructive' | 'blue' | 'purple' | 'yellow' | 'green'

export const statusVariants: Record<LeadStatus, BadgeVariant> = {
  new: 'blue',
  contacted: 'purple',
  'follow-up': 'yellow',
  converted: 'green',
  rejected: 'secondary',
}

/** Spec section 4: high red, medium yellow, low green. */
export const priorityVariants: Record<LeadPriority, BadgeVariant> = {
  high: 'destructive',
  medium: 'yellow',
  low: 'green',
}

/** 'Meera Joshi' gives 'MJ', 'Dr. Rajesh Iyer' gives 'RI', 'Lead 4f2a91' gives 'L4'. */
export function leadInitials(name: string): string {
  const words = name.split(/\s+/).filter((w) => w && !isHonorific(w))
  const initial = (w: string | undefined) => Array.from(w ?? '')[0] ?? ''
  const letters = `${initial(words[0])}${words.length > 1 ? initial(words.at(-1)) : ''}`
  return letters.toUpperCase() || '?'
}

/** 'x ago', or 'Never' for a lead nobody has contacted (spec section 3). */
export function lastContactText(iso: string | null, now: Date = new Date()): string {
  return iso ? formatAgo(iso, now) : 'Never'
}

const percent = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 1 })
const count = new Intl.NumberFormat('en-IN')

/**
 * The stats strip's trend lines in the spec's wording ('+12% from last week', '+5 today',
 * '36% conversion rate', '3 urgent require attention'), computed from the figures.
 */
export function trendTexts(trends: Stats['trends']) {
  const change = trends.totalChangePct
  return {
    total:
      change === null
        ? 'No leads the week before'
        : `${change > 0 ? '+' : ''}${percent.format(change)}% from last week`,
    newLeads: `+${count.format(trends.newToday)} today`,
    converted: `${percent.format(trends.conversionRate)}% conversion rate`,
    followUps:
      trends.followUpsOverdue === 0
        ? 'None overdue'
        : `${count.format(trends.followUpsOverdue)} urgent require attention`,
  }
}

/** The digits of an E.164 number, as wa.me wants them ('+919876543210' gives '919876543210'). */
export function phoneDigits(e164: string): string {
  return e164.replace(/\D/g, '')
}

export const contactHref = {
  call: (phone: string) => `tel:${phone}`,
  whatsapp: (phone: string) => `https://wa.me/${phoneDigits(phone)}`,
  email: (email: string) => `mailto:${email}`,
  sms: (phone: string) => `sms:${phone}`,
}

/** Who the message dialog writes to, for a lead. */
export function leadRecipient(lead: Pick<Lead, 'id' | 'name' | 'phone' | 'email'>) {
  return {
    kind: 'lead' as const,
    id: lead.id,
    name: lead.name,
    phone: lead.phone,
    email: lead.email,
  }
}
