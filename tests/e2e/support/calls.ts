import type { Browser, Page } from '@playwright/test'
import { expect, login, randomMobile } from '../fixtures'

/**
 * Click-to-call in the e2e (issue 41). The server runs the sandbox (no provider) with short
 * rings and talks (playwright.config.ts: VOICE_SANDBOX_RING_MS, VOICE_SANDBOX_TALK_MS); a
 * customer number ending in 0–6 is answered, 7–8 rings out, 9 is busy (sandbox-voice.ts).
 */

const ADMIN = 'admin@sanjeevani.demo'

async function send(page: Page, method: 'PUT' | 'POST', url: string, data: unknown) {
  const origin = new URL(page.url()).origin
  const response = await page.request.fetch(url, { method, data, headers: { origin } })
  expect(response.status(), await response.text()).toBeLessThan(300)
  return response
}

/** A mobile number the sandbox answers (its last digit 0–6). */
export function answeredMobile(): string {
  return `${randomMobile().slice(0, -1)}${Math.floor(Math.random() * 7)}`
}

/** The signed-in staff member's phone for calls, set and verified (a sandbox test call). */
export async function verifyMyPhone(page: Page): Promise<void> {
  await send(page, 'PUT', '/api/calls/my-phone', { phone: answeredMobile() })
}

async function setCallingHours(browser: Browser, start: string, end: string): Promise<void> {
  const context = await browser.newContext()
  const page = await context.newPage()
  try {
    await login(page, ADMIN)
    await send(page, 'PUT', '/api/settings/voice', {
      provider: 'sandbox',
      callingHoursStart: start,
      callingHoursEnd: end,
    })
  } finally {
    await context.close()
  }
}

/**
 * Calls to leads are held outside the hospital's calling hours (09:00–21:00 India by default):
 * the admin allows them all day for the test (equal times) and `restore` puts the default back.
 */
export async function allowCallsAllDay(
  browser: Browser,
): Promise<{ restore: () => Promise<void> }> {
  await setCallingHours(browser, '00:00', '00:00')
  return { restore: () => setCallingHours(browser, '09:00', '21:00') }
}

/** A day in India as the date field shows it (dd/mm/yyyy), `days` from today there. */
export function indiaDay(days: number): { field: string; date: Date } {
  const shifted = new Date(Date.now() + 5.5 * 3_600_000 + days * 86_400_000)
  const [y, m, d] = shifted.toISOString().slice(0, 10).split('-')
  return { field: `${d}/${m}/${y}`, date: shifted }
}

/** "Fri 4 Dec, 11:00" for a day in India at a time: what the lead's follow-up reads. */
export function callBackLabel(days: number, time: string): string {
  const [y, m, d] = new Date(Date.now() + 5.5 * 3_600_000 + days * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .split('-')
  const at = new Date(`${y}-${m}-${d}T${time}:00+05:30`)
  const parts = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'Asia/Kolkata',
  }).formatToParts(at)
  const part = (t: string) => parts.find((p) => p.type === t)?.value ?? ''
  return `${part('weekday')} ${part('day')} ${part('month')}, ${time}`
}

/** Minutes since midnight in India now. */
export function indiaMinutesNow(): number {
  const now = new Date(Date.now() + 5.5 * 3_600_000)
  return now.getUTCHours() * 60 + now.getUTCMinutes()
}
