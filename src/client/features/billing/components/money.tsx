import { formatMoney } from '@/shared/money'

/** What every amount on Billing carries: one line (never "₹1,97,197.|05") and even figures. */
export const moneyClass = 'whitespace-nowrap tabular-nums'

/**
 * An amount in rupees from paise, as one unbreakable figure (issue 40 item 8): at 1280 px a
 * narrow card wrapped "₹1,97,197.05" mid-number. A negative amount shows with a minus sign.
 */
export function Money({ paise, className }: { paise: number; className?: string }) {
  const text = paise < 0 ? `−${formatMoney(-paise)}` : formatMoney(paise)
  return <span className={className ? `${moneyClass} ${className}` : moneyClass}>{text}</span>
}
