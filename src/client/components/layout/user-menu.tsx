import { LogOut, Settings } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'wouter'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/client/components/ui/dropdown-menu'
import { fullName } from '@/client/lib/display-name'
import { paths, serverPaths } from '@/client/paths'
import type { CurrentUser } from '@/shared/schemas/auth'
import { roleLabels } from '@/shared/roles'
import { APP_VERSION } from '@/shared/version'
import { Avatar, avatarButtonClass } from './avatar'

/** The header's account button: who is signed in, where, Settings, Sign Out and About (the version). */
export function UserMenu({ user }: { user: CurrentUser }) {
  const name = fullName(user)
  // The menu renders inside this span, in the header's banner landmark.
  const [container, setContainer] = useState<HTMLSpanElement | null>(null)
  return (
    <span ref={setContainer} className="contents">
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger aria-label="Account menu" title={name} className={avatarButtonClass}>
          <Avatar user={user} />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" container={container}>
          <DropdownMenuLabel>
            <span className="block font-semibold" data-testid="account-name">
              {name}
            </span>
            <span className="block text-slate-600">{user.email}</span>
            <span className="mt-1 block text-xs text-slate-600">
              {roleLabels[user.role]}
              {user.hospitalName ? ` · ${user.hospitalName}` : ' · Arogya CRM platform'}
            </span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild>
            <Link href={paths.settings}>
              <Settings aria-hidden="true" />
              Settings
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <a href={serverPaths.logout}>
              <LogOut aria-hidden="true" />
              Sign Out
            </a>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel className="text-xs font-normal text-slate-600" data-testid="about">
            About: Arogya CRM version {APP_VERSION}
          </DropdownMenuLabel>
        </DropdownMenuContent>
      </DropdownMenu>
    </span>
  )
}
