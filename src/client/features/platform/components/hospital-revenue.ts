import { formatMoney } from '@/shared/money'
import type { SubscriptionStatus } from '@/shared/schemas/platform'

/**
 * A hospital card's Revenue (issue 40 item 19): a trial, or a cancelled subscription, pays
 * nothing, whatever its plan's price; only a paying hospital shows its monthly amount.
 */
export function hospitalRevenue(h: {
  subscriptionStatus: SubscriptionStatus
  monthlyRevenue: number
  currency: string
}): string {
  if (h.subscriptionStatus === 'trial') return 'None (trial)'
  if (h.subscriptionStatus === 'cancelled') return 'None (cancelled)'
  return `${formatMoney(h.monthlyRevenue, h.currency)}/month`
}
