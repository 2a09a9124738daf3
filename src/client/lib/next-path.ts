import { appPaths, matchAppPath } from '@/shared/app-routes'
import { safeRedirectPath } from '@/shared/safe-redirect'

/**
 * The page to return to after sign-in, from the sign-in page's `next` parameter: a path on
 * this site by the one redirect rule (shared/safe-redirect.ts), and not the sign-in page itself
 * or an /api address. Anything else is null, and the screen's default applies.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  const target = safeRedirectPath(raw)
  if (!target) return null
  const path = target.split(/[?#]/)[0] ?? ''
  if (path === '/api' || path.startsWith('/api/') || matchAppPath(path) === appPaths.login)
    return null
  return target
}

/** The sign-in page, coming back to `target` (a path and query) afterwards. */
export function signInHref(target: string): string {
  // '/' may stay as it is in a query, which keeps the address readable (/login?next=/patients).
  return `${appPaths.login}?next=${encodeURIComponent(target).replace(/%2F/gi, '/')}`
}
