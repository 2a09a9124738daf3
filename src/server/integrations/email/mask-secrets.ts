/**
 * What the platform's outbox keeps of an email instead of the secrets in it (issue 39, item 5):
 * an invitation, activation or password-reset link opens an account, so no copy of the email
 * that anyone but its recipient can read may hold it. Each secret becomes `••••` and its last 4
 * characters (enough to tell two links apart, useless to open one).
 *
 * Two rules, applied together:
 * - the secrets a message declares (MailMessage.secrets: a link's token), wherever they appear;
 * - every link's fragment and token-like query values (16 or more URL-safe characters), so a
 *   link whose sender forgot to declare its token is masked as well, and so are the rows kept
 *   before this rule (the outbox masks on reading too). A secret in a link's path must be
 *   declared.
 */

export const MASK = '••••'

/** Fewer characters than this are not a token (a short fragment like #pricing stays). */
const MIN_TOKEN_LENGTH = 16
const TOKEN = /^[A-Za-z0-9._~-]+$/
const LINK = /\bhttps?:\/\/[^\s<>"'`]+/g

export function maskToken(token: string): string {
  return `${MASK}${token.slice(-4)}`
}

const isToken = (value: string) => value.length >= MIN_TOKEN_LENGTH && TOKEN.test(value)

/** One link with its fragment and token-like query values masked. */
function maskLink(link: string): string {
  const hash = link.indexOf('#')
  const beforeHash = hash >= 0 ? link.slice(0, hash) : link
  const fragment = hash >= 0 ? link.slice(hash + 1) : null
  const query = beforeHash.indexOf('?')
  let masked = beforeHash
  if (query >= 0) {
    const params = beforeHash
      .slice(query + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=')
        if (eq < 0) return pair
        const value = pair.slice(eq + 1)
        return isToken(value) ? `${pair.slice(0, eq + 1)}${maskToken(value)}` : pair
      })
    masked = `${beforeHash.slice(0, query + 1)}${params.join('&')}`
  }
  if (fragment === null) return masked
  return `${masked}#${fragment.length >= MIN_TOKEN_LENGTH ? maskToken(fragment) : fragment}`
}

/** `text` with every declared secret and every link's token masked. */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text
  const declared = [...new Set(secrets)]
    .filter((s) => s.length >= 8)
    .sort((a, b) => b.length - a.length)
  for (const secret of declared) out = out.split(secret).join(maskToken(secret))
  return out.replace(LINK, maskLink)
}
