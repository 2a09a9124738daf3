import { Construction } from 'lucide-react'
import { Card, CardContent } from './card'

const defaultText =
  'This part of Arogya CRM is being built. Patients and manual patient entry are ready to use today.'

/** Placeholder panel for a screen that a later release builds. */
export function ComingSoon({ title, text = defaultText }: { title: string; text?: string }) {
  return (
    <div className="min-w-0 space-y-6">
      <h1 className="text-2xl font-bold [overflow-wrap:anywhere]">{title}</h1>
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-6 text-center sm:p-10">
          <Construction className="size-10 text-brand-700" aria-hidden="true" />
          <p className="text-lg font-medium">{title} is coming soon</p>
          <p className="max-w-md text-sm text-slate-600">{text}</p>
        </CardContent>
      </Card>
    </div>
  )
}
