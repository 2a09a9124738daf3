import {
  createLeadViaApi,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  test,
  uniqueName,
} from './fixtures'
import { allowCallsAllDay, answeredMobile, verifyMyPhone } from './support/calls'

// Issue 29: the staff shell reports presence (heartbeat). Issue 41: a lead's Call places a call
// through the hospital's number (the sandbox here); the live call bar follows it, also after a
// reload, until it has ended (calls.spec.ts follows the disposition and the follow-up).

let restore: (() => Promise<void>) | undefined
test.beforeAll(async ({ browser }) => {
  restore = (await allowCallsAllDay(browser)).restore
})
test.afterAll(async () => {
  await restore?.()
})

test('heartbeat while signed in; Call places a call the bar follows to its end', async ({
  page,
}) => {
  const heartbeat = page.waitForRequest(
    (r) => r.url().endsWith('/api/live-monitoring/heartbeat') && r.method() === 'POST',
  )
  await login(page, 'receptionist@sanjeevani.demo')
  await page.goto('/leads')
  expect((await (await heartbeat).response())?.status()).toBe(204)
  await verifyMyPhone(page)
  const name = uniqueName('Monitored', 'Caller')
  await createLeadViaApi(page, { name, phone: answeredMobile() })
  await page.getByRole('searchbox', { name: 'Search leads' }).fill(name)
  await expect(page.getByTestId('lead-row')).toHaveCount(1)

  const started = page.waitForResponse(
    (r) => r.url().endsWith('/api/calls') && r.request().method() === 'POST',
  )
  await page.getByRole('button', { name: `Call ${name}`, exact: true }).click()
  expect((await started).status()).toBe(201)
  const bar = page.getByRole('region', { name: 'Call', exact: true })
  await expect(bar).toContainText(`Call with ${name}`)
  await expectNoAxeViolations(page, 'the leads page during a call')
  // The call survives a reload (the tab keeps it), on a phone-sized screen too.
  const size = page.viewportSize()
  await page.setViewportSize({ width: 360, height: 800 })
  await page.reload()
  await expect(bar).toContainText(`Call with ${name}`)
  await expectNoSidewaysScroll(page, 'the call bar at 360 px')
  if (size) await page.setViewportSize(size)

  await expect(bar.getByTestId('call-status')).toHaveText(/^Call ended/, { timeout: 20_000 })
  const dialog = page.getByRole('dialog', { name: `How did the call with ${name} go?` })
  await dialog.getByRole('button', { name: 'Later' }).click()
  await expect(dialog).toHaveCount(0)
  await bar.getByRole('button', { name: 'Close call' }).click()
  await expect(bar).toBeHidden()
})
