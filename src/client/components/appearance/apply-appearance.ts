import { type Preferences, readPreferences } from '@/shared/preferences'

/**
 * Where the signed-in user's appearance is cached, so index.html's inline script can apply it
 * before the first paint (keep the key and the rules below in step with that script).
 */
export const APPEARANCE_STORAGE_KEY = 'arogya.appearance'

const darkQuery = '(prefers-color-scheme: dark)'

export function prefersDark(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(darkQuery).matches
}

/** Whether these preferences show the dark theme now (system: the device's setting). */
export function isDark(prefs: Preferences): boolean {
  return prefs.theme === 'dark' || (prefs.theme === 'system' && prefersDark())
}

/** Puts the preferences on <html>: the `dark` class, data-primary and data-compact. */
export function applyAppearance(prefs: Preferences): void {
  const root = document.documentElement
  root.classList.toggle('dark', isDark(prefs))
  if (prefs.primaryColor === 'teal') root.removeAttribute('data-primary')
  else root.setAttribute('data-primary', prefs.primaryColor)
  if (prefs.compact) root.setAttribute('data-compact', '')
  else root.removeAttribute('data-compact')
}

export function cacheAppearance(prefs: Preferences): void {
  try {
    localStorage.setItem(APPEARANCE_STORAGE_KEY, JSON.stringify(prefs))
  } catch {
    // Private mode or a full storage: the server still remembers them.
  }
}

/** What index.html applied before the first paint, if anything. */
export function cachedAppearance(): Preferences | undefined {
  try {
    const raw = localStorage.getItem(APPEARANCE_STORAGE_KEY)
    return raw ? readPreferences(JSON.parse(raw)) : undefined
  } catch {
    return undefined
  }
}

/** Signed out: the next visitor of this browser starts from the default look. */
export function clearAppearance(): void {
  const root = document.documentElement
  root.classList.remove('dark')
  root.removeAttribute('data-primary')
  root.removeAttribute('data-compact')
  try {
    localStorage.removeItem(APPEARANCE_STORAGE_KEY)
  } catch {
    // nothing cached
  }
}

export { darkQuery }
