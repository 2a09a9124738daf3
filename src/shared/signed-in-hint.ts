/**
 * The signed-in hint cookie's name (src/server/http/signed-in-hint.ts sets it beside the
 * HttpOnly session cookie; the client reads it before asking who is signed in).
 */
export const SIGNED_IN_HINT = 'arogya.signed_in'

/** Whether a `document.cookie` string carries the hint. */
export function hasSignedInHint(cookies: string): boolean {
  return cookies.split(';').some((part) => part.trim() === `${SIGNED_IN_HINT}=1`)
}
