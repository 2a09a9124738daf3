import type { Page } from '@playwright/test'
import {
  createLeadViaApi,
  createPatientViaApi,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  skipLeadsTour,
  test,
  uniqueName,
} from './fixtures'
import {
  allowCallsAllDay,
  answeredMobile,
  callBackLabel,
  indiaDay,
  indiaMinutesNow,
  verifyMyPhone,
} from './support/calls'

// Issue 41, click-to-call in the browser, in the sandbox (rings 1.5 s, talks 3 s here): a
// receptionist with a verified phone clicks Call on a lead, the bar shows ringing → connected
// (with a running timer) → ended, the disposition dialog asks how it went, "call back" tomorrow
// 11:00 becomes the lead's follow-up; a call-back due today is counted in Follow-ups Due.

const RECEPTIONIST = 'receptionist@sanjeevani.demo'
const VIEWER = 'viewer@sanjeevani.demo'

const rows = (page: Page) => page.getByTestId('lead-row')
const bar = (page: Page) => page.getByRole('region', { name: 'Call', exact: true })
const followUpsDue = (page: Page) =>
  page
    .getByTestId('stat-card')
    .filter({ has: page.getByRole('heading', { name: 'Follow-ups Due' }) })
    .locator('p')
    .first()

async function showOnly(page: Page, name: string) {
  await page.getByRole('searchbox', { name: 'Search leads' }).fill(name)
  await expect(rows(page)).toHaveCount(1)
}

/** After a resize the charts and the table's container queries lay out again: wait for it. */
async function settledAt360(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      timeout: 5_000,
    })
    .toBeLessThanOrEqual(0)
}

/** Clicks Call on the lead's row and follows the bar until the call has ended. */
async function callAndWaitForEnd(page: Page, name: string) {
  const placed = page.waitForResponse(
    (r) => r.url().endsWith('/api/calls') && r.request().method() === 'POST',
  )
  await rows(page)
    .getByRole('button', { name: `Call ${name}`, exact: true })
    .click()
  expect((await placed).status()).toBe(201)
  await expect(bar(page)).toContainText(`Call with ${name}`)
  await expect(bar(page)).toContainText('Sandbox')
  const status = bar(page).getByTestId('call-status')
  await expect(status).toHaveText(/Ringing…|Placing the call…|Connected/)
  await expect(status).toHaveText(/^Connected · 0:\d\d$/, { timeout: 15_000 })
  return status
}

let restore: (() => Promise<void>) | undefined
test.beforeAll(async ({ browser }) => {
  restore = (await allowCallsAllDay(browser)).restore
})
test.afterAll(async () => {
  await restore?.()
})

test('Call on a lead: ringing, connected, ended; call back tomorrow 11:00 is its follow-up', async ({
  page,
}) => {
  await skipLeadsTour(page)
  await login(page, RECEPTIONIST)
  await verifyMyPhone(page)
  const name = uniqueName('Callback', 'Lead')
  await createLeadViaApi(page, { name, phone: answeredMobile(), serviceInterest: 'Cataract' })
  await page.goto('/leads')
  await showOnly(page, name)

  const status = await callAndWaitForEnd(page, name)
  await expectNoAxeViolations(page, 'the live call bar while connected')
  const size = page.viewportSize()
  await page.setViewportSize({ width: 360, height: 740 })
  await settledAt360(page)
  await expectNoSidewaysScroll(page, 'the live call bar at 360 px')
  if (size) await page.setViewportSize(size)

  // The call ends by itself (the customer hangs up): its outcome, and the dialog opens.
  await expect(status).toHaveText(/^Call ended · answered · \d+:\d\d$/, { timeout: 15_000 })
  const dialog = page.getByRole('dialog', { name: `How did the call with ${name} go?` })
  await expect(dialog).toBeVisible()
  for (const label of [
    'Interested',
    'Call back at…',
    'Not reachable',
    'Wrong number',
    'Booked an appointment',
    'Not interested',
  ])
    await expect(dialog.getByRole('radio', { name: label, exact: true })).toBeVisible()
  await dialog.getByRole('radio', { name: 'Call back at…', exact: true }).check()
  // Tomorrow 11:00 in the hospital's zone unless changed.
  await expect(dialog.getByLabel('Call back on')).toHaveValue(indiaDay(1).field)
  await expect(dialog.getByLabel('Call back time')).toHaveValue('11:00')
  await dialog
    .getByLabel('Note (optional)')
    .fill('Wants to speak to her son about the surgery date')
  await expectNoAxeViolations(page, 'the disposition dialog')
  await page.setViewportSize({ width: 360, height: 740 })
  await settledAt360(page)
  await expectNoSidewaysScroll(page, 'the disposition dialog at 360 px')
  if (size) await page.setViewportSize(size)

  const saved = page.waitForResponse((r) => /\/api\/calls\/[^/]+\/disposition$/.test(r.url()))
  await dialog.getByRole('button', { name: 'Save outcome' }).click()
  expect((await saved).status()).toBe(200)
  const tomorrow = callBackLabel(1, '11:00')
  await expect(page.getByText(`Call back: ${tomorrow}`).first()).toBeVisible()
  await expect(dialog).toHaveCount(0)
  await expect(bar(page)).toHaveCount(0)

  // The lead's details show the follow-up and the call.
  await rows(page)
    .getByRole('button', { name: `More about ${name}`, exact: true })
    .click()
  const details = page.getByRole('dialog', { name: `Lead Details: ${name}` })
  await expect(details.getByTestId('call-follow-up')).toHaveText(`Call back: ${tomorrow}`)
  await expect(details).toContainText('Outcome: Call back at')
  await expect(details).toContainText('Wants to speak to her son')
  await page.keyboard.press('Escape')
  await expect(details).toHaveCount(0)
})

test('a call-back due today is counted in Follow-ups Due', async ({ page }) => {
  // "Today at 23:59" is in the past only in the last minutes of an Indian day.
  test.skip(indiaMinutesNow() > 23 * 60 + 55, 'too close to midnight in India')
  await skipLeadsTour(page)
  await login(page, RECEPTIONIST)
  await verifyMyPhone(page)
  const name = uniqueName('Today', 'Callback')
  await createLeadViaApi(page, { name, phone: answeredMobile() })
  await page.goto('/leads')
  await showOnly(page, name)
  await expect(followUpsDue(page)).toHaveText(/^\d[\d,]*$/)
  const before = Number((await followUpsDue(page).textContent())?.replace(/,/g, ''))

  const status = await callAndWaitForEnd(page, name)
  await expect(status).toHaveText(/^Call ended/, { timeout: 15_000 })
  const dialog = page.getByRole('dialog', { name: `How did the call with ${name} go?` })
  await dialog.getByRole('radio', { name: 'Call back at…', exact: true }).check()
  await dialog.getByLabel('Call back on').fill(indiaDay(0).field)
  await dialog.getByLabel('Call back time').fill('23:59')
  await dialog.getByRole('button', { name: 'Save outcome' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(followUpsDue(page)).toHaveText(String(before + 1))
})

test('a viewer sees no Call button', async ({ page }) => {
  await skipLeadsTour(page)
  await login(page, VIEWER)
  await page.goto('/leads')
  await expect(rows(page).first()).toBeVisible()
  await expect(
    rows(page)
      .first()
      .getByRole('button', { name: /^More about / }),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: /^Call / })).toHaveCount(0)
})

test('without a verified phone, Call says where to set it and leads there', async ({ page }) => {
  await skipLeadsTour(page)
  await login(page, RECEPTIONIST)
  const name = uniqueName('Unrung', 'Lead')
  await createLeadViaApi(page, { name, phone: answeredMobile() })
  // The demo's staff all have verified phones: the server's refusal for one without is stood in
  // for (its words: src/server/modules/calls/call-contact.ts NO_STAFF_PHONE).
  await page.route('**/api/calls', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 'BAD_REQUEST',
            message:
              'Add your own mobile number under My phone and verify it with a test call first: calls ring your phone before the customer’s.',
          }),
        })
      : route.fallback(),
  )
  await page.goto('/leads')
  await showOnly(page, name)
  const refused = page.waitForResponse(
    (r) => r.url().endsWith('/api/calls') && r.request().method() === 'POST',
  )
  await rows(page)
    .getByRole('button', { name: `Call ${name}`, exact: true })
    .click()
  expect((await refused).status()).toBe(400)
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'My phone for calls' })
  await expect(toast).toContainText('Settings → Security')
  await expect(bar(page)).toHaveCount(0)
  await toast.getByRole('button', { name: 'Open My phone' }).click()
  await expect(page).toHaveURL(/\/settings\?tab=security$/)
  await expect(page.getByText('My phone for calls', { exact: true })).toBeVisible()
})

test('Call on a patient; "booked" opens the appointment form with the patient filled in', async ({
  page,
}) => {
  await login(page, RECEPTIONIST)
  await verifyMyPhone(page)
  const name = uniqueName('Booked', 'Caller')
  await createPatientViaApi(page, { name, phone: answeredMobile() })
  await page.goto('/patients')
  await page.getByPlaceholder('Search patients by name, email, or phone...').fill(name)
  const call = page.getByRole('button', { name: `Call ${name}`, exact: true }).first()
  const placed = page.waitForResponse(
    (r) => r.url().endsWith('/api/calls') && r.request().method() === 'POST',
  )
  await call.click()
  expect((await placed).status()).toBe(201)
  await expect(bar(page)).toContainText(`Call with ${name}`)
  await expect(bar(page).getByTestId('call-status')).toHaveText(/^Call ended/, {
    timeout: 20_000,
  })
  const dialog = page.getByRole('dialog', { name: `How did the call with ${name} go?` })
  await dialog.getByRole('radio', { name: 'Booked an appointment', exact: true }).check()
  await dialog.getByRole('button', { name: 'Save outcome' }).click()
  const booking = page.getByRole('dialog', { name: 'New Appointment' })
  await expect(booking).toBeVisible()
  await expect(booking.getByRole('button', { name: `Change patient (${name})` })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(booking).toHaveCount(0)
  await expect(bar(page)).toHaveCount(0)
})
