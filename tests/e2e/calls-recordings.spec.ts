import type { Page } from '@playwright/test'
import {
  createLeadViaApi,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  skipLeadsTour,
  test,
  uniqueName,
} from './fixtures'
import { allowCallsAllDay, answeredMobile, verifyMyPhone } from './support/calls'

// Issue 41, recordings, in the sandbox (its recording is a few seconds of silence): with
// recording on, an answered call's recording plays in the lead's history for an admin
// (calls:recordings); a receptionist sees the call but no player, and the server refuses her.

const ADMIN = 'admin@sanjeevani.demo'
const RECEPTIONIST = 'receptionist@sanjeevani.demo'

async function api(page: Page, method: 'PUT' | 'POST', url: string, data: unknown) {
  const origin = new URL(page.url()).origin
  const res = await page.request.fetch(url, { method, data, headers: { origin } })
  expect(res.status(), await res.text()).toBeLessThan(300)
  return (await res.json()) as Record<string, unknown>
}

async function openDetails(page: Page, name: string) {
  await page.goto('/leads')
  await page.getByRole('searchbox', { name: 'Search leads' }).fill(name)
  await expect(page.getByTestId('lead-row')).toHaveCount(1)
  await page
    .getByTestId('lead-row')
    .getByRole('button', { name: `More about ${name}`, exact: true })
    .click()
  const details = page.getByRole('dialog', { name: `Lead Details: ${name}` })
  await expect(details.getByTestId('communication').first()).toBeVisible()
  return details
}

let restore: (() => Promise<void>) | undefined
test.beforeAll(async ({ browser }) => {
  restore = (await allowCallsAllDay(browser)).restore
})
test.afterAll(async () => {
  await restore?.()
})

test('a recorded call plays in the lead’s history for an admin, not for a receptionist', async ({
  page,
  browser,
}) => {
  await skipLeadsTour(page)
  await login(page, ADMIN)
  await api(page, 'PUT', '/api/settings/voice', {
    provider: 'sandbox',
    callingHoursStart: '00:00',
    callingHoursEnd: '00:00',
    recordingEnabled: true,
  })
  try {
    await verifyMyPhone(page)
    const name = uniqueName('Recorded', 'Caller')
    const lead = await createLeadViaApi(page, { name, phone: answeredMobile() })
    const call = await api(page, 'POST', '/api/calls', { leadId: lead.id })
    const id = String(call.id)
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(`/api/calls/${id}`)).json()) as { hasRecording: boolean })
            .hasRecording,
        { timeout: 30_000 },
      )
      .toBe(true)

    const details = await openDetails(page, name)
    const player = details.getByTestId('call-recording')
    await expect(player).toHaveAttribute('src', `/api/calls/${id}/recording`)
    await expect(player).toHaveAttribute('aria-label', 'Recording of this call')
    const audio = await page.request.get(`/api/calls/${id}/recording`)
    expect(audio.status()).toBe(200)
    expect(audio.headers()['content-type']).toBe('audio/wav')
    await expectNoAxeViolations(page, 'lead details with a call recording')
    await page.setViewportSize({ width: 360, height: 740 })
    await expect(player).toBeVisible()
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
      .toBeLessThanOrEqual(0)
    await expectNoSidewaysScroll(page, 'lead details with a call recording at 360 px')

    const context = await browser.newContext()
    const front = await context.newPage()
    try {
      await skipLeadsTour(front)
      await login(front, RECEPTIONIST)
      const theirs = await openDetails(front, name)
      await expect(theirs).toContainText('Call')
      await expect(theirs.getByTestId('call-recording')).toHaveCount(0)
      expect((await front.request.get(`/api/calls/${id}/recording`)).status()).toBe(403)
    } finally {
      await context.close()
    }
  } finally {
    await api(page, 'PUT', '/api/settings/voice', {
      provider: 'sandbox',
      callingHoursStart: '00:00',
      callingHoursEnd: '00:00',
      recordingEnabled: false,
    })
  }
})
