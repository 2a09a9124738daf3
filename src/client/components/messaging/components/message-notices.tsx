import { Ban, Clock } from 'lucide-react'
import type { MessageChannel } from '@/shared/messaging'
import { OUTSIDE_WINDOW_TEXT, optedOutText } from '../message-rules'

/** Why the dialog limits or refuses this send, said before the user tries. */
export function BlockNotice({
  block,
  channel,
}: {
  block: 'opted-out' | 'outside-window' | 'no-address' | null
  channel: MessageChannel
}) {
  if (!block) return null
  const [Icon, text] =
    block === 'opted-out'
      ? [Ban, optedOutText(channel)]
      : block === 'outside-window'
        ? [Clock, OUTSIDE_WINDOW_TEXT]
        : [Ban, channel === 'email' ? 'No email address on file.' : 'No phone number on file.']
  return (
    <p
      role="status"
      className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{text}</span>
    </p>
  )
}
