import { smsCounter } from '../message-rules'

/** Spec: the SMS dialog shows 'n/160'; plus parts and encoding (Hindi or ₹: 70 a part). */
export function SmsCounter({ text, id }: { text: string; id: string }) {
  const { count, detail } = smsCounter(text)
  return (
    <p
      id={id}
      className="flex flex-wrap justify-between gap-2 text-xs text-slate-600"
      aria-live="polite"
    >
      <span data-testid="sms-count">{count}</span>
      <span data-testid="sms-parts">{detail}</span>
    </p>
  )
}
