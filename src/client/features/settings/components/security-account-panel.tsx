import { Skeleton } from '@/client/components/ui/skeleton'
import { useUser } from '@/client/lib/current-user'
import { MyPhoneCard } from '../voice/my-phone-card'
import { SecurityPasswordCard } from './security-password-card'
import { SecuritySessionsCard } from './security-sessions-card'
import { SecurityTwoFactorCard } from './security-two-factor-card'

/**
 * Settings -> Security for the signed-in user (issue 27), staff and super admins alike: their
 * own two-factor, password and active sessions. (The hospital-wide policy switches sit beside
 * it in the same tab, for admins.)
 */
export function SecurityAccountPanel() {
  const { data: user } = useUser()
  return (
    <section aria-labelledby="security-account-title" className="space-y-3">
      <h2 id="security-account-title" className="text-lg font-semibold">
        Your sign-in security
      </h2>
      {user ? (
        <SecurityTwoFactorCard user={user} />
      ) : (
        <div role="status" aria-busy="true" aria-label="Loading your account">
          <Skeleton className="h-32 w-full" />
        </div>
      )}
      <MyPhoneCard />
      <SecurityPasswordCard />
      <SecuritySessionsCard />
    </section>
  )
}
