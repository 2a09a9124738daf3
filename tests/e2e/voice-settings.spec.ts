import {
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  randomMobile,
  test,
} from './fixtures'

// Issue 41: Settings → Integrations → Voice (admins) and Settings → Security → My phone for
// calls (staff who may call). Smile Dental's admin: the click-to-call specs use Sanjeevani's
// sandbox, and this spec leaves Smile Dental back on the sandbox with its default hours.

const SHOTS = 'test-results/e2e/screenshots'
const TOKEN = 'exotel-e2e-token-Ab12'

test('an admin sets up Exotel, sees the callback URL, and test-calls in the sandbox', async ({
  page,
}) => {
  await login(page, 'admin@smiledental.demo')
  await page.goto('/settings?tab=integrations')
  await expect(page.getByRole('heading', { name: 'Voice calls' })).toBeVisible()
  await expect(page.getByText(/No provider yet: calls are simulated/)).toBeVisible()

  // Exotel, with a bad ExoPhone and no token: each refusal is said next to its field.
  await page.getByLabel('Voice provider').selectOption('exotel')
  await page.getByLabel('Account SID').fill('smiledental1')
  await page.getByLabel('API key', { exact: true }).fill('exotel-e2e-api-key')
  await page.getByLabel('ExoPhone').fill('not a number')
  const saveButton = page.getByRole('button', { name: 'Save voice settings' })
  await saveButton.click()
  await expect(page.locator('#voice-callerId-error')).toHaveText(
    'ExoPhone must be a phone number, e.g. 080 4711 2233',
  )
  await page.getByLabel('ExoPhone').fill('080 4711 2233')
  await saveButton.click()
  await expect(page.locator('#voice-apiToken-error')).toHaveText('API token is required')

  await page.getByLabel('API token').fill(TOKEN)
  await page.getByLabel('Record answered calls').check()
  await expect(page.getByText(/This call may be recorded for quality and training/)).toBeVisible()
  await saveButton.click()
  await expect(page.getByText('Voice settings saved')).toBeVisible()
  await expect(
    page.getByText(/Calls go through Exotel; patients see \+91 80 4711 2233/),
  ).toBeVisible()
  await expect(page.getByText('Saved (ends Ab12)', { exact: false })).toBeVisible()
  await expect(page.getByLabel('API token')).toHaveValue('')
  const url = page.locator('code', { hasText: '/api/webhooks/exotel/' })
  await expect(url).toContainText(/\/status\?t=[0-9a-f]{32,}/)
  await expect(page.getByRole('button', { name: /Copy\s+Exotel StatusCallback URL/ })).toBeVisible()

  // After a reload: still saved, the token nowhere in the page or the API's answer.
  await page.reload()
  await expect(page.getByLabel('Account SID')).toHaveValue('smiledental1')
  await expect(page.getByLabel('Record answered calls')).toBeChecked()
  expect(await page.content()).not.toContain(TOKEN)
  expect(await (await page.request.get('/api/settings/voice')).text()).not.toContain(TOKEN)

  await expectNoAxeViolations(page, 'Settings → Integrations with Voice')
  await page.setViewportSize({ width: 360, height: 740 })
  await expectNoSidewaysScroll(page, 'Voice settings at 360px')
  await page.getByRole('heading', { name: 'Voice calls' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SHOTS}/voice-settings-360.png` })
  await page.setViewportSize({ width: 1280, height: 800 })

  // Back to the sandbox (no call leaves the building), recording off; then a test call.
  await page.getByLabel('Voice provider').selectOption('sandbox')
  await page.getByLabel('Record answered calls').uncheck()
  await saveButton.click()
  await expect(page.getByText(/No provider yet: calls are simulated/)).toBeVisible()
  await expect(page.locator('code', { hasText: '/api/webhooks/exotel/' })).toHaveCount(0)

  const number = page.getByLabel('Mobile number to ring')
  await number.fill('12345')
  await page.getByRole('button', { name: 'Test call' }).click()
  const result = page.getByRole('status', { name: 'Test call result' })
  await expect(result).toContainText('Enter a valid mobile number')
  await number.fill(`${randomMobile().slice(0, 9)}9`)
  await page.getByRole('button', { name: 'Test call' }).click()
  await expect(result).toContainText('Sandbox: no voice provider is set up')
  await expect(result).toContainText('busy')
  await expectNoAxeViolations(page, 'Voice test call result')

  // Who incoming calls ring: the receptionist alone, then the default again.
  const ring = page.getByRole('group', { name: 'Staff to ring' })
  await expect(page.getByRole('heading', { name: 'Incoming calls ring' })).toBeVisible()
  await ring.getByRole('checkbox', { name: /Sahana Kamath/ }).check()
  await page.getByRole('button', { name: 'Save ring group' }).click()
  await expect(page.getByText(/^Rings now: Sahana Kamath\./)).toBeVisible()
  await expectNoAxeViolations(page, 'Settings → Integrations with the ring group')
  await ring.getByRole('checkbox', { name: /Sahana Kamath/ }).uncheck()
  await page.getByRole('button', { name: 'Save ring group' }).click()
  await expect(ring.getByRole('checkbox', { checked: true })).toHaveCount(0)
})

test('staff verify their own phone for calls; a viewer has no such card', async ({
  page,
  browser,
}) => {
  await login(page, 'receptionist@smiledental.demo')
  await page.goto('/settings?tab=security')
  await expect(page.getByRole('heading', { name: 'My phone for calls' })).toBeVisible()
  const phone = page.getByLabel('Your mobile number')
  await phone.fill('020 2550 1234')
  await page.getByRole('button', { name: /and verify/ }).click()
  await expect(page.getByText('Enter a valid mobile number, e.g. 98765 43210')).toBeVisible()

  const mobile = randomMobile()
  await phone.fill(`${mobile.slice(0, 5)} ${mobile.slice(5)}`)
  await page.getByRole('button', { name: /and verify/ }).click()
  await expect(page.getByText(/^Verified on /)).toBeVisible()
  await expect(page.getByText(`+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`).first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'Change and verify' })).toBeVisible()

  await expectNoAxeViolations(page, 'Settings → Security with My phone for calls')
  await page.setViewportSize({ width: 360, height: 740 })
  await expectNoSidewaysScroll(page, 'My phone for calls at 360px')
  await page.getByRole('heading', { name: 'My phone for calls' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SHOTS}/my-phone-360.png` })
  await page.setViewportSize({ width: 1280, height: 800 })

  const other = await browser.newContext()
  try {
    const viewer = await other.newPage()
    // Not smiledental's viewer: security-settings.spec changes that account's password.
    await login(viewer, 'viewer@sanjeevani.demo')
    await viewer.goto('/settings?tab=security')
    await expect(viewer.getByRole('heading', { name: 'Your sign-in security' })).toBeVisible()
    await expect(viewer.getByRole('heading', { name: 'My phone for calls' })).toHaveCount(0)
    await viewer.goto('/settings?tab=integrations')
    await expect(
      viewer.getByText("Only your hospital's admin can change its integrations."),
    ).toBeVisible()
    await expect(viewer.getByRole('heading', { name: 'Voice calls' })).toHaveCount(0)
  } finally {
    await other.close()
  }
})
