import { Mail, MessageCircle, MessageSquare } from 'lucide-react'
import { type ComponentProps, lazy, Suspense, useState } from 'react'
import { Button, type ButtonProps } from '@/client/components/ui/button'
import type { MessageChannel } from '@/shared/messaging'
import { channelLabels } from '../message-rules'
import type { Recipient } from '../types'

// The dialog (templates, the SMS rules, the phone check) loads when a button is first pointed
// at, focused or pressed, not with the lead and patient lists that show the buttons.
const loadDialog = () => import('./message-dialog')
const MessageDialog = lazy(() => loadDialog().then((m) => ({ default: m.MessageDialog })))
const warm = { onPointerEnter: () => void loadDialog(), onFocus: () => void loadDialog() }

/** The dialog once it has been asked for; nothing (and no download) before. */
function LazyMessageDialog(props: ComponentProps<typeof MessageDialog>) {
  if (!props.to) return null
  return (
    <Suspense fallback={null}>
      <MessageDialog {...props} />
    </Suspense>
  )
}

const icons = { whatsapp: MessageCircle, email: Mail, sms: MessageSquare } as const

/**
 * Buttons that open the message dialog on a channel: a lead row's icons ('icon'), or labelled
 * buttons (Quick Actions, a patient's card). The dialog lives beside them.
 */
export function MessageActions({
  to,
  channels,
  variant = 'labelled',
  buttonProps,
}: {
  to: Recipient
  channels: readonly MessageChannel[]
  variant?: 'icon' | 'labelled'
  buttonProps?: Pick<ButtonProps, 'size' | 'variant' | 'className'>
}) {
  const [open, setOpen] = useState<MessageChannel | null>(null)
  return (
    <>
      {channels.map((channel) => {
        const Icon = icons[channel]
        const label = channelLabels[channel]
        const noEmail = channel === 'email' && !to.email
        if (variant === 'icon')
          return (
            <Button
              key={channel}
              variant="ghost"
              size="icon"
              {...buttonProps}
              disabled={noEmail}
              {...warm}
              onClick={() => setOpen(channel)}
              aria-label={
                noEmail ? `${label} ${to.name} (no email address)` : `${label} ${to.name}`
              }
              title={noEmail ? 'No email address' : label}
            >
              <Icon aria-hidden="true" />
            </Button>
          )
        return (
          <Button
            key={channel}
            variant="outline"
            {...buttonProps}
            disabled={noEmail}
            title={noEmail ? 'No email address' : undefined}
            {...warm}
            onClick={() => setOpen(channel)}
          >
            <Icon aria-hidden="true" />
            {label}
          </Button>
        )
      })}
      <LazyMessageDialog
        to={open ? to : null}
        type={open ?? 'whatsapp'}
        onClose={() => setOpen(null)}
      />
    </>
  )
}

/** One "Send Message" button (a patient's card and details); the channel is picked inside. */
export function MessageButton({
  to,
  buttonProps,
}: {
  to: Recipient
  buttonProps?: Pick<ButtonProps, 'size' | 'variant' | 'className'>
}) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button
        variant="outline"
        {...buttonProps}
        {...warm}
        onClick={() => setOpen(true)}
        aria-label={`Send Message to ${to.name}`}
      >
        <MessageSquare aria-hidden="true" /> Send Message
      </Button>
      <LazyMessageDialog
        to={open ? to : null}
        type={to.phone ? 'whatsapp' : 'email'}
        onClose={() => setOpen(false)}
      />
    </>
  )
}
