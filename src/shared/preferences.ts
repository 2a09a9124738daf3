/*
 * Settings → Appearance (issue 27): each signed-in user's own theme, primary colour and compact
 * mode. The values and the lenient reader live here, without zod, because the staff shell applies
 * them before any screen loads; schemas/preferences builds the request schema from them.
 */

export const themes = ['light', 'dark', 'system'] as const
export type Theme = (typeof themes)[number]

/** Teal is Arogya's own colour (the default); the others are the spec's swatches. */
export const primaryColors = ['teal', 'blue', 'green', 'purple', 'red', 'orange'] as const
export type PrimaryColor = (typeof primaryColors)[number]

export type Preferences = {
  theme: Theme
  primaryColor: PrimaryColor
  compact: boolean
}

export const themeLabels: Record<Theme, string> = {
  light: 'Light',
  dark: 'Dark',
  system: 'System',
}

export const primaryColorLabels: Record<PrimaryColor, string> = {
  teal: 'Teal',
  blue: 'Blue',
  green: 'Green',
  purple: 'Purple',
  red: 'Red',
  orange: 'Orange',
}

export const defaultPreferences: Preferences = {
  theme: 'light',
  primaryColor: 'teal',
  compact: false,
}

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value)

/**
 * Preferences from anything stored or cached (an older build's keys, a hand-edited
 * localStorage): each valid key is kept, anything else takes its default.
 */
export function readPreferences(value: unknown): Preferences {
  const stored = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  return {
    theme: isOneOf(themes, stored.theme) ? stored.theme : defaultPreferences.theme,
    primaryColor: isOneOf(primaryColors, stored.primaryColor)
      ? stored.primaryColor
      : defaultPreferences.primaryColor,
    compact: typeof stored.compact === 'boolean' ? stored.compact : defaultPreferences.compact,
  }
}
