import { z } from 'zod'
import { type Preferences, primaryColors, themes } from '../preferences'

/*
 * Settings → Appearance (issue 27): GET /api/me/preferences and PUT /api/me/preferences (the
 * whole set; unknown keys are refused). The values, labels, defaults and the lenient reader are
 * in shared/preferences (no zod: the staff shell applies them before any screen loads).
 */
export {
  defaultPreferences,
  type Preferences,
  type PrimaryColor,
  primaryColorLabels,
  primaryColors,
  readPreferences,
  type Theme,
  themeLabels,
  themes,
} from '../preferences'

export const preferences = z.strictObject({
  theme: z.enum(themes, { message: 'Choose light, dark or system' }),
  primaryColor: z.enum(primaryColors, {
    message: `Choose one of: ${primaryColors.join(', ')}`,
  }),
  compact: z.boolean({ message: 'Compact mode is on or off (true or false)' }),
}) satisfies z.ZodType<Preferences>

/** PUT /api/me/preferences: the whole set. */
export const savePreferencesInput = preferences
export type SavePreferencesInput = Preferences
