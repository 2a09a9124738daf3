import { Phone, PhoneCall } from 'lucide-react'
import { Button, type ButtonProps } from '@/client/components/ui/button'
import type { CallContact } from '../current-call'
import { usePlaceCall } from '../use-place-call'

/**
 * Call (issue 41): the server rings the staff member's phone, then the contact's, through the
 * hospital's number; the live call bar shows the rest. Hidden without calls:make (viewers).
 * `icon` is the row action's icon button ("Call <name>"); otherwise a labelled button.
 */
export function CallButton({
  contact,
  icon = false,
  label = 'Call',
  ...buttonProps
}: Omit<ButtonProps, 'onClick' | 'children'> & {
  contact: CallContact
  icon?: boolean
  label?: string
}) {
  const { canCall, place, placing } = usePlaceCall()
  if (!canCall) return null
  if (icon) {
    return (
      <Button
        variant="ghost"
        size="icon"
        {...buttonProps}
        onClick={() => void place(contact)}
        disabled={placing || buttonProps.disabled}
        aria-busy={placing || undefined}
        aria-label={`Call ${contact.name}`}
        title="Call"
      >
        <Phone aria-hidden="true" />
      </Button>
    )
  }
  return (
    <Button
      variant="outline"
      {...buttonProps}
      onClick={() => void place(contact)}
      loading={placing}
      loadingText="Calling..."
    >
      <PhoneCall aria-hidden="true" />
      {label}
    </Button>
  )
}
