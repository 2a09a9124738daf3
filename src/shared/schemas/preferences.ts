import { z } from 'zod'

/*
 * Settings → Appearance (issue 27): each signed-in user's own theme, primary colour and
 * compact mode, remembered on the server. GET /api/me/preferences and PUT /api/me/preferences
 * (the whole set; unknown keys are refused). The client applies them to <html> and keeps a copy
 * in localStorage so the first paint already has them.
 */

export const themes = ['light', 'dark', 'system'] as const
export type Theme = (typeof themes)[number]

/** Teal is Arogya's own colour (the default); the others are the spec's swatches. */
export const primaryColors = ['teal', 'blue', 'green', 'purple', 'red', 'orange'] as const
export type PrimaryColor = (typeof primaryColors)[number]

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

export const preferences = z.strictObject({
  theme: z.enum(themes, { message: 'Choose light, dark or system' }),
  primaryColor: z.enum(primaryColors, {
    message: `Choose one of: ${primaryColors.join(', ')}`,
  }),
  compact: z.boolean({ message: 'Compact mode is on or off (true or false)' }),
})
export type Preferences = z.infer<typeof preferences>

/** PUT /api/me/preferences: the whole set. */
export const savePreferencesInput = preferences
export type SavePreferencesInput = Preferences

export const defaultPreferences: Preferences = {
  theme: 'light',
  primaryColor: 'teal',
  compact: false,
}

/**
 * Preferences from anything stored or cached (an older build's keys, a hand-edited
 * localStorage): each valid key is kept, anything else takes its default.
 */
export function readPreferences(value: unknown): Preferences {
  const stored = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  const pick = <K extends keyof Preferences>(key: K): Preferences[K] => {
    const parsed = preferences.shape[key].safeParse(stored[key])
    return parsed.success ? (parsed.data as Preferences[K]) : defaultPreferences[key]
  }
  return { theme: pick('theme'), primaryColor: pick('primaryColor'), compact: pick('compact') }
}
