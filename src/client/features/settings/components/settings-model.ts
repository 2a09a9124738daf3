import type { FieldErrors } from 'react-hook-form'
import type { Settings, SettingsFormInput } from '@/shared/schemas/settings'

export const settingsTabs = [
  'general',
  'integrations',
  'notifications',
  'templates',
  'security',
  'appearance',
  'data',
] as const
export type SettingsTab = (typeof settingsTabs)[number]

/** The tab /settings opens on: ?tab= when it names one, else General for everyone (issue 40 item 15). */
export function settingsTab(asked: string | null): SettingsTab {
  return settingsTabs.find((t) => t === asked) ?? 'general'
}

/** The tab each section's fields live on. */
export const sectionTabs = {
  general: 'general',
  leadManagement: 'general',
  notifications: 'notifications',
  security: 'security',
  data: 'data',
} as const satisfies Record<keyof SettingsFormInput, string>

/** The first tab that shows an error, in the tabs' order. */
export function firstTabWithErrors(errors: FieldErrors<SettingsFormInput>): string | null {
  for (const section of Object.keys(sectionTabs) as (keyof typeof sectionTabs)[]) {
    if (errors[section]) return sectionTabs[section]
  }
  return null
}

/** What the server answered, as the form edits it ('' for an empty text field). */
export function toForm(s: Settings): SettingsFormInput {
  const g = s.general
  return {
    general: {
      ...g,
      gstin: g.gstin ?? '',
      upiId: g.upiId ?? '',
      grievanceName: g.grievanceName ?? '',
      grievanceEmail: g.grievanceEmail ?? '',
      address: g.address ?? '',
      phone: g.phone ?? '',
    },
    leadManagement: { ...s.leadManagement },
    notifications: { ...s.notifications },
    security: { ...s.security },
    data: { ...s.data },
  } as SettingsFormInput
}

/**
 * Settings' one Save Changes button saves the booking page through this (issue 40 item 15: no
 * second save button on the General tab). save(): true when saved or unchanged, false when the
 * save failed (its reason shown).
 */
export class BookingPageSaver {
  private current: (() => Promise<boolean>) | null = null
  register(save: (() => Promise<boolean>) | null): void {
    this.current = save
  }
  save(): Promise<boolean> {
    return this.current ? this.current() : Promise.resolve(true)
  }
}
