import type { SessionDeps } from '../../auth/access'
import type { SignInThrottle } from '../../auth/sign-in-throttle'
import type { Mailer } from '../../integrations/email/mailer'

/** What the sign-in, sign-out and trial routes share. */
export interface SessionRouteDeps extends SessionDeps {
  throttle: SignInThrottle
  mailer: Mailer
  /** Public URL (BASE_URL) when configured; links otherwise use the request's own host. */
  baseURL: string | undefined
  /** Per-IP limits on emails sent by the trial form (off in tests that sign up many clinics). */
  emailRateLimit: boolean
}
