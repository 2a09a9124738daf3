/**
 * Settings: Two-factor, password and sessions (issue 27). Placeholder while its slice is built; the slice replaces this
 * file and keeps the export's name.
 */
export function SecurityAccountPanel() {
  return null
}
