import { Calendar } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Button, type ButtonProps } from '@/client/components/ui/button'
import { useCan } from '@/client/lib/current-user'
import type { PickedPatient } from './patient-picker'

/** The form (react-hook-form, zod, the phone metadata) comes with the first click, not the list. */
const AppointmentDialog = lazy(() =>
  import('./appointment-dialog').then((m) => ({ default: m.AppointmentDialog })),
)

/**
 * A button that opens the New Appointment dialog for a patient (preselected) or a lead (booked
 * by leadId: the server links or creates the patient). Hidden without appointments:write.
 */
export function ScheduleAppointmentButton({
  patient,
  lead,
  label,
  ...buttonProps
}: Omit<ButtonProps, 'onClick'> & {
  patient?: PickedPatient
  lead?: PickedPatient
  /** The visible text ('Schedule Appointment', 'Schedule'). */
  label: string
}) {
  const canWrite = useCan('appointments:write')
  const [open, setOpen] = useState(false)
  // Mounted from the first open on, so the dialog can animate closed.
  const [used, setUsed] = useState(false)
  if (!canWrite) return null
  return (
    <>
      <Button
        {...buttonProps}
        onClick={() => {
          setUsed(true)
          setOpen(true)
        }}
      >
        <Calendar aria-hidden="true" /> {label}
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <AppointmentDialog
            target={
              open
                ? { kind: 'new', ...(patient ? { patient } : {}), ...(lead ? { lead } : {}) }
                : null
            }
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  )
}
