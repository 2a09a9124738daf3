/**
 * The one rule for every redirect target (docs/decisions/009): better-auth's callbackURL,
 * errorCallbackURL, newUserCallbackURL and redirectTo, and the sign-in page's `next`. Only a
 * path on this site is honoured ('/patients?x=1'); anything else falls back to a default.
 */

/** The longest target honoured; a longer one is refused. */
export const REDIRECT_MAX_LENGTH = 2000

/** A base no real page has: a target that resolves to another origin left this site. */
const BASE = 'https://safe-redirect.invalid'

/** Unicode spaces, line and paragraph separators, invisible marks; and the backslash. */
const UNSAFE_CHARACTER = /[\s\u180e\u200b-\u200f\u2028-\u202f\u205f-\u2064\ufeff\\]/

/** C0 and C1 control characters, DEL, and spaces of any kind (no-control-regex). */
function hasUnsafeCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code <= 0x20 || (code >= 0x7f && code <= 0xa0)) return true
  }
  return UNSAFE_CHARACTER.test(text)
}

/**
 * What decoding must never reveal in the path: a slash or backslash (`/%2f%2fevil.example`,
 * `/%5cevil.example`), a dot (dot segments), a control character or space, or a `%` (text
 * encoded twice, which some other layer might decode once more).
 */
const ENCODED_IN_PATH = /%(2f|5c|2e|25|[01][0-9a-f]|20|7f)/i

/** Dot segments: '/./', '/../', and a trailing '/.' or '/..'. */
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/

function splitPath(target: string): string {
  const end = target.search(/[?#]/)
  return end === -1 ? target : target.slice(0, end)
}

/**
 * The target as a path on this site, serialised the way a URL parser writes it, or null.
 * Accepts '/', '/patients', '/patients?search=meera%20joshi', '/settings#security'. Refuses
 * everything that is not a plain root-relative path: absolute URLs (also to look-alikes such
 * as 'http://127.0.0.1.evil.example'), scheme-relative '//host' and '/\host', 'https:host',
 * 'javascript:' and 'data:', backslashes, controls and spaces anywhere (a browser drops tabs
 * and newlines, so '/\t/evil.example' would become '//evil.example'), percent-encoded
 * slashes, backslashes, dots, controls or percent signs in the path, and dot segments.
 */
export function safeRedirectPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > REDIRECT_MAX_LENGTH) return null
  if (raw[0] !== '/' || raw[1] === '/') return null
  if (hasUnsafeCharacter(raw)) return null
  const path = splitPath(raw)
  if (ENCODED_IN_PATH.test(path) || DOT_SEGMENT.test(path)) return null
  let url: URL
  try {
    url = new URL(raw, BASE)
  } catch {
    return null
  }
  if (url.origin !== BASE) return null
  const serialised = `${url.pathname}${url.search}${url.hash}`
  // Belt and braces: nothing above may have let the parser turn it into '//host'.
  return serialised.startsWith('//') ? null : serialised
}

/** Whether `raw` is a redirect target this site honours. */
export function isSafeRedirectPath(raw: unknown): raw is string {
  return safeRedirectPath(raw) !== null
}

/** The target when it is a path on this site, else `fallback` ('/' unless the screen has its own). */
export function redirectPathOr(raw: unknown, fallback = '/'): string {
  return safeRedirectPath(raw) ?? fallback
}
