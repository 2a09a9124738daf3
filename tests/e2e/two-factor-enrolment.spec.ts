import {
  expectNoSidewaysScroll,
  acceptedTotpCodes,
  expectNoAxeViolations,
  DEMO_PASSWORD,
  ENROLMENT_HEADING,
  expect,
  nextTotpCode,
  readShownBackupCodes,
  readShownSecret,
  rememberEnrolment,
  SUPER_ADMIN,
  test,
} from './fixtures'

// Runs first in its own project (playwright.config.ts): the run's database is fresh, so the
// super admin has not enrolled yet. It records the secret for every later super-admin sign-in.

const SHOTS = 'test-results/e2e/screenshots'

test('a super admin without two-factor sees only the enrolment screen until it is turned on', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 800 } })
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel('Email').fill(SUPER_ADMIN)
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()

  // Only the enrolment screen: no sidebar, no other route, and the API refuses the rest.
  await expect(page.getByRole('heading', { level: 1, name: ENROLMENT_HEADING })).toBeVisible()
  await expect(page).toHaveTitle(`${ENROLMENT_HEADING} · Arogya CRM`)
  await expect(
    page.getByText('Platform accounts must use two-factor authentication.'),
  ).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Sign out' })).toHaveAttribute('href', '/api/logout')
  await page.goto('/patients')
  await expect(page.getByRole('heading', { name: ENROLMENT_HEADING })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0)
  const refused = await page.request.get('/api/admin/demo-requests')
  expect(refused.status()).toBe(403)
  expect(await refused.json()).toMatchObject({ code: 'TWO_FACTOR_REQUIRED' })
  await expectNoAxeViolations(page, 'step 1', { strict: true })
  await expectNoSidewaysScroll(page, 'step 1 at 360 px')
  await page.screenshot({ path: `${SHOTS}/two-factor-enrolment-step-1-360.png`, fullPage: true })

  // Step 1: a wrong password is refused inline.
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('alert')).toHaveText('Enter your password.')
  await page.getByLabel('Password', { exact: true }).fill('not-the-password')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('alert')).toBeVisible()
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Continue' }).click()

  // Step 2: QR code, the key to type, backup codes.
  await expect(
    page.getByRole('heading', { name: 'Step 2 of 2: Add Arogya CRM to your authenticator app' }),
  ).toBeFocused()
  await expect(
    page.getByRole('img', { name: 'QR code to scan with your authenticator app' }),
  ).toBeVisible()
  const secret = await readShownSecret(page)
  await expect(page.getByTestId('totp-secret')).toHaveText(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/)
  const backupCodes = await readShownBackupCodes(page)
  expect(backupCodes.length).toBeGreaterThanOrEqual(5)
  await expect(page.getByText('Store these codes somewhere safe')).toBeVisible()
  await expectNoAxeViolations(page, 'step 2', { strict: true })
  await expectNoSidewaysScroll(page, 'step 2 at 360 px')
  await page.screenshot({ path: `${SHOTS}/two-factor-enrolment-360.png`, fullPage: true })

  // A wrong code is refused inline.
  const accepted = acceptedTotpCodes(secret)
  const wrong = ['000000', '111111', '222222', '333333'].find((c) => !accepted.includes(c))!
  const codeField = page.getByLabel('6-digit code from your app')
  await codeField.fill('12')
  await page.getByRole('button', { name: 'Turn on two-factor' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'Enter the 6-digit code from your authenticator app.',
  )
  await codeField.fill(wrong)
  await page.getByRole('button', { name: 'Turn on two-factor' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'That code is not valid. Check the time on your phone and try the newest code.',
  )
  await expect(codeField).toHaveAttribute('aria-invalid', 'true')
  await expectNoAxeViolations(page, 'step 2 with an error', { strict: true })
  await expectNoSidewaysScroll(page, 'step 2 with an error at 360 px')
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.screenshot({ path: `${SHOTS}/two-factor-enrolment-1280.png`, fullPage: true })
  await page.setViewportSize({ width: 360, height: 800 })

  // The right code turns two-factor on and the app shows.
  rememberEnrolment(secret, backupCodes)
  await codeField.fill(await nextTotpCode())
  await page.getByRole('button', { name: 'Turn on two-factor' }).click()
  await expect(page.getByRole('button', { name: 'Open Menu' })).toBeVisible()
  await expect(page.getByText('Two-factor authentication is on')).toBeVisible()
  await expect(page.getByRole('heading', { name: ENROLMENT_HEADING })).toHaveCount(0)
  await expect(page).not.toHaveTitle(/Set up two-factor/)
  const allowed = await page.request.get('/api/admin/demo-requests')
  expect(allowed.status()).toBe(200)
  await page.getByRole('button', { name: 'Open Menu' }).click()
  await expect(page.getByRole('link', { name: 'Super Admin', exact: true })).toBeVisible()

  // Signing in again asks for a code from the app.
  await page.goto('/api/logout')
  await page.goto('/login')
  await page.getByLabel('Email').fill(SUPER_ADMIN)
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.getByLabel('Authentication code').fill(await nextTotpCode())
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByRole('button', { name: 'Open Menu' })).toBeVisible()
  await context.close()
})
