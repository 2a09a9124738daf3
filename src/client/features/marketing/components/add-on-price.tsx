import { formatRupees } from '@/shared/money'
import type { AddOn } from '@/shared/plans'

/** '₹999 per video', 'From ₹9,999', '₹4,999 one-time'. */
export function AddOnPrice({ addOn, className = '' }: { addOn: AddOn; className?: string }) {
  return (
    <span className={`whitespace-nowrap ${className}`}>
      {addOn.from ? 'From ' : ''}
      <span className="font-bold text-slate-900">{formatRupees(addOn.price)}</span>
      <span className="text-slate-600"> {addOn.unit ?? (addOn.from ? '' : 'one-time')}</span>
    </span>
  )
}
