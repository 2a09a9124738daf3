import { Check, Monitor, Moon, Sun } from 'lucide-react'
import type { ReactNode } from 'react'
import { usePreferences, useSavePreferences } from '@/client/components/appearance/api/preferences'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import {
  type Preferences,
  primaryColorLabels,
  primaryColors,
  type Theme,
  themeLabels,
  themes,
} from '@/shared/schemas/preferences'

const themeIcons: Record<Theme, ReactNode> = {
  light: <Sun className="size-4" aria-hidden="true" />,
  dark: <Moon className="size-4" aria-hidden="true" />,
  system: <Monitor className="size-4" aria-hidden="true" />,
}

/** Each swatch painted in its light-theme 600 shade (fixed, whatever the current theme). */
const swatchColors: Record<Preferences['primaryColor'], string> = {
  teal: '#0d9488',
  blue: '#2563eb',
  green: '#16a34a',
  purple: '#9333ea',
  red: '#dc2626',
  orange: '#ea580c',
}

const option =
  'flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-800 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600'

/**
 * Settings → Appearance (issue 27): theme, primary colour and compact mode, for the signed-in
 * user alone. A choice shows at once across the app and is saved to the server right away.
 */
export function AppearancePanel() {
  const prefs = usePreferences()
  const save = useSavePreferences()

  function change(next: Partial<Preferences>) {
    if (!prefs.data) return
    save.mutate(
      { ...prefs.data, ...next },
      {
        onSuccess: () => toast.success('Settings saved successfully'),
        onError: (error) =>
          toast.error(
            'Failed to save settings',
            error instanceof ApiError ? error.serverMessage : undefined,
          ),
      },
    )
  }

  return (
    <section aria-labelledby="appearance-title" className="space-y-3">
      <h2 id="appearance-title" className="text-lg font-semibold">
        Appearance
      </h2>
      <Card>
        <CardHeader>
          <CardTitle>Your look</CardTitle>
          <p className="text-sm text-slate-600">
            Only for you, on every device you sign in on. Your colleagues keep their own.
          </p>
        </CardHeader>
        <CardContent>
          {prefs.isError && !prefs.data ? (
            <InlineLoadError
              message="Failed to load your appearance settings."
              onRetry={() => void prefs.refetch()}
            />
          ) : !prefs.data ? (
            <div
              className="space-y-3"
              role="status"
              aria-busy="true"
              aria-label="Loading appearance settings"
            >
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-10 w-full" />
            </div>
          ) : (
            <AppearanceFields prefs={prefs.data} onChange={change} />
          )}
        </CardContent>
      </Card>
    </section>
  )
}

function AppearanceFields({
  prefs,
  onChange,
}: {
  prefs: Preferences
  onChange: (next: Partial<Preferences>) => void
}) {
  return (
    <div className="space-y-5">
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-semibold">Theme</legend>
        <div className="flex flex-wrap gap-2">
          {themes.map((theme) => (
            <label key={theme} className={option}>
              <input
                type="radio"
                name="theme"
                value={theme}
                className="sr-only"
                checked={prefs.theme === theme}
                onChange={() => onChange({ theme })}
              />
              {themeIcons[theme]}
              {themeLabels[theme]}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-semibold">Primary colour</legend>
        <div className="flex flex-wrap gap-2">
          {primaryColors.map((color) => (
            <label key={color} className={option}>
              <input
                type="radio"
                name="primaryColor"
                value={color}
                className="sr-only"
                checked={prefs.primaryColor === color}
                onChange={() => onChange({ primaryColor: color })}
              />
              <span
                aria-hidden="true"
                className="flex size-5 items-center justify-center rounded-full"
                style={{ backgroundColor: swatchColors[color] }}
              >
                {prefs.primaryColor === color ? <Check className="size-3.5 text-white" /> : null}
              </span>
              {primaryColorLabels[color]}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-brand-700"
          checked={prefs.compact}
          onChange={(e) => onChange({ compact: e.target.checked })}
        />
        <span>
          <span className="font-semibold">Compact mode</span>
          <span className="block text-slate-600">
            Tighter spacing, so more rows fit on the screen.
          </span>
        </span>
      </label>
    </div>
  )
}
