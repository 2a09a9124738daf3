import Bowser from 'bowser'

/**
 * A session's device as people name it ("Chrome on Windows", "Safari on iPhone"), read from its
 * user agent with bowser; "Unknown device" when there is none or nothing in it is known.
 */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent?.trim()) return 'Unknown device'
  let parsed: Bowser.Parser.ParsedResult
  try {
    parsed = Bowser.parse(userAgent.slice(0, 1000))
  } catch {
    return 'Unknown device'
  }
  const browser = parsed.browser.name || undefined
  const model = parsed.platform.model
  const os = parsed.os.name || undefined
  const where = model && /^(iPhone|iPad|iPod)$/.test(model) ? model : os
  if (browser && where) return `${browser} on ${where}`
  return browser ?? where ?? 'Unknown device'
}
