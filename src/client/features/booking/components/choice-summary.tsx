import type { Choice } from './choose-step'

/** What the visitor chose: service, doctor, day and time. */
export function ChoiceSummary({ choice }: { choice: Choice }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-md bg-slate-100 p-3 text-sm">
      <dt className="text-slate-600">Service</dt>
      <dd className="font-medium text-slate-900">{choice.service.name}</dd>
      <dt className="text-slate-600">Doctor</dt>
      <dd className="font-medium text-slate-900">{choice.doctor?.name ?? 'Any doctor'}</dd>
      <dt className="text-slate-600">When</dt>
      <dd className="font-medium text-slate-900">
        {choice.dateLabel}, {choice.slot.label}
      </dd>
    </dl>
  )
}
