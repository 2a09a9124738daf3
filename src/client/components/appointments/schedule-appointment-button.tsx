import { Calendar } from 'lucide-react'
import { useState } from 'react'
import { Button, type ButtonProps } from '@/client/components/ui/button'
import { useCan } from '@/client/lib/current-user'
import { AppointmentDialog } from './appointment-dialog'
import type { PickedPatient } from './patient-picker'

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
  if (!canWrite) return null
  return (
    <>
      <Button {...buttonProps} onClick={() => setOpen(true)}>
        <Calendar aria-hidden="true" /> {label}
      </Button>
      <AppointmentDialog
        target={
          open ? { kind: 'new', ...(patient ? { patient } : {}), ...(lead ? { lead } : {}) } : null
        }
        onClose={() => setOpen(false)}
      />
    </>
  )
}
