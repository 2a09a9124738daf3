import { appPaths, matchAppPath } from '@/shared/app-routes'

/** A base that no real page has: a `next` that resolves elsewhere left this site. */
const BASE = 'https://arogya.invalid'

function hasControl(text: string): boolean {
  return [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
}

/**
 * The page to return to after sign-in, from the sign-in page's `next` parameter. Only a path
 * on this site is honoured ('/patients?search=x'): never another origin ('//evil.example',
 * 'https://evil.example', '/\evil.example'), the sign-in page itself or an /api address.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000) return null
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\s]/.test(raw) || hasControl(raw))
    return null
  let url: URL
  try {
    url = new URL(raw, BASE)
  } catch {
    return null
  }
  if (url.origin !== BASE) return null
  const path = url.pathname
  if (path === '/api' || path.startsWith('/api/') || matchAppPath(path) === appPaths.login)
    return null
  return `${path}${url.search}${url.hash}`
}

/** The sign-in page, coming back to `target` (a path and query) afterwards. */
export function signInHref(target: string): string {
  // '/' may stay as it is in a query, which keeps the address readable (/login?next=/patients).
  return `${appPaths.login}?next=${encodeURIComponent(target).replace(/%2F/gi, '/')}`
}
