import { Construction } from 'lucide-react'
import { Card, CardContent } from './card'

/** Placeholder panel for a screen that a later release builds. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">{title}</h1>
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <Construction className="size-10 text-brand-700" aria-hidden="true" />
          <p className="text-lg font-medium">{title} is coming soon</p>
          <p className="max-w-md text-sm text-slate-600">
            This part of Arogya CRM is being built. Patients and manual patient entry are ready to
            use today.
          </p>
        </CardContent>
      </Card>
    </div>
  )
}
