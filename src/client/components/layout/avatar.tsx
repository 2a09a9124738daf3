import { initialsOf } from '@/client/lib/display-name'
import type { CurrentUser } from '@/shared/schemas/auth'

export const avatarButtonClass =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-full outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 disabled:opacity-100'

/** The user's initials in a circle (decorative: the button around it carries the name). */
export function Avatar({ user }: { user: CurrentUser }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-9 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white"
    >
      {initialsOf(user)}
    </span>
  )
}

/** The account button as it looks while the menu's code loads (a moment after the shell). */
export function AvatarButtonPlaceholder({ user }: { user: CurrentUser }) {
  return (
    <button type="button" aria-label="Account menu" disabled className={avatarButtonClass}>
      <Avatar user={user} />
    </button>
  )
}
