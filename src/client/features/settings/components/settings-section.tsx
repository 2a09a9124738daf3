import type { FormEvent, ReactNode } from 'react'

/**
 * A part of the one Settings form on one tab: Enter in any field saves everything (as Save
 * Changes does), and members who may not change settings see the values disabled.
 */
export function SettingsSection({
  canEdit,
  onSubmit,
  children,
}: {
  canEdit: boolean
  onSubmit: (e: FormEvent) => void
  children: ReactNode
}) {
  return (
    <form onSubmit={onSubmit} noValidate className="min-w-0">
      <fieldset disabled={!canEdit} className="min-w-0 space-y-4">
        {children}
      </fieldset>
    </form>
  )
}
