import { expect, expectNoAxeViolations, expectNoSidewaysScroll, login, test } from './fixtures'

// Issue 29: the staff shell reports presence (heartbeat), and a lead's Call action starts a
// Live Monitoring call that the 'End call' bar ends.
test('heartbeat while signed in; Call starts a call and End call ends it', async ({ page }) => {
  const heartbeat = page.waitForRequest(
    (r) => r.url().endsWith('/api/live-monitoring/heartbeat') && r.method() === 'POST',
  )
  await login(page, 'receptionist@sanjeevani.demo')
  await page.goto('/leads')
  expect((await (await heartbeat).response())?.status()).toBe(204)

  // The tel: link would leave the page for the phone app: keep the page, keep React's click.
  await page.evaluate(() => {
    document.addEventListener(
      'click',
      (e) => {
        if ((e.target as Element | null)?.closest('a[href^="tel:"]')) e.preventDefault()
      },
      true,
    )
  })
  const callLink = page.getByRole('link', { name: /^Call / }).first()
  await expect(callLink).toBeVisible()
  const name = ((await callLink.getAttribute('aria-label')) ?? '').replace(/^Call /, '')
  const started = page.waitForResponse(
    (r) => /\/api\/leads\/[^/]+\/calls$/.test(r.url()) && r.request().method() === 'POST',
  )
  await callLink.click()
  expect((await started).status()).toBe(201)
  const bar = page.getByRole('region', { name: 'Call in progress' })
  await expect(bar).toContainText(`On a call with ${name}`)
  await expectNoAxeViolations(page, 'the leads page during a call')
  // The call survives a reload (the tab keeps it), on a phone-sized screen too.
  const size = page.viewportSize()
  await page.setViewportSize({ width: 360, height: 800 })
  await page.reload()
  await expect(bar).toContainText(`On a call with ${name}`)
  await expectNoSidewaysScroll(page, 'the call bar at 360 px')
  if (size) await page.setViewportSize(size)

  const ended = page.waitForResponse(
    (r) => /\/calls\/[^/]+\/end$/.test(r.url()) && r.request().method() === 'POST',
  )
  await bar.getByRole('button', { name: 'End call' }).click()
  expect((await ended).status()).toBe(200)
  await expect(bar).toBeHidden()
})
