import { TRIAL_STARTED_MESSAGE } from '../../src/shared/schemas/auth'
import {
  DEMO_PASSWORD,
  expect,
  login,
  readNewestEmail,
  nextTotpCode,
  SUPER_ADMIN,
  takeBackupCode,
  test,
  verifyEmailPath,
} from './fixtures'

test('a viewer can read patients but is offered no way to change them', async ({ page }) => {
  await login(page, 'viewer@sanjeevani.demo')
  await page.goto('/patients')
  await expect(page.getByTestId('patient-card').first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'New Patient' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Edit/ })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /View Details/ }).first()).toBeVisible()
  await page.goto('/manual-patient')
  await expect(page.getByText('Your role can view patients but not add them.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Add Patient to System' })).toHaveCount(0)
})

test('only the super admin sees the Super Admin link; the menu marks the screen that is open', async ({
  page,
}) => {
  await login(page, 'admin@smiledental.demo')
  await expect(page.getByRole('link', { name: 'Super Admin' })).toHaveCount(0)
  await page.getByRole('link', { name: 'Backup', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Backup Settings' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Backup', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await page.goto('/api/logout')
  await login(page, SUPER_ADMIN)
  await expect(page.getByRole('link', { name: 'Super Admin' })).toBeVisible()
})

test('the super admin can sign in with a backup code, once, or with the app after switching back', async ({
  page,
}) => {
  async function passwordStep() {
    await page.goto('/login')
    await page.getByLabel('Email').fill(SUPER_ADMIN)
    await page.getByLabel('Password').fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect(page.getByLabel('Authentication code')).toBeFocused()
    await page.getByRole('button', { name: 'Use a backup code instead' }).click()
  }
  const code = takeBackupCode()
  await passwordStep()
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByRole('alert')).toHaveText('Enter one of your backup codes.')
  await page.getByLabel('Backup code').fill(code)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
  await page.goto('/api/logout')

  // A used code is refused; the app's code still works.
  await passwordStep()
  await page.getByLabel('Backup code').fill(code)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'That backup code is not valid or has been used.',
  )
  await page.getByRole('button', { name: 'Use a code from your authenticator app' }).click()
  await page.getByLabel('Authentication code').fill(await nextTotpCode())
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
})

test('on a phone the sidebar starts closed, opens from the menu and closes again', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } })
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel('Email').fill('nurse@smiledental.demo')
  await page.getByLabel('Password').fill('arogya-demo-2026')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('button', { name: 'Open Menu' })).toBeVisible()
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  await expect(nav).not.toBeInViewport()
  await page.getByRole('button', { name: 'Open Menu' }).click()
  await expect(nav).toBeInViewport()
  await page.getByRole('button', { name: 'Close sidebar' }).click()
  await expect(nav).not.toBeInViewport()
  await page.getByRole('button', { name: 'Open Menu' }).click()
  await nav.getByRole('link', { name: 'Patients' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Patients', exact: true })).toBeVisible()
  await expect(nav).not.toBeInViewport()
  // Turned to landscape (wide): the sidebar opens beside the page; back to portrait: it closes
  // rather than covering the page.
  await page.setViewportSize({ width: 1280, height: 740 })
  await expect(page.getByRole('button', { name: 'Close Menu' })).toBeVisible()
  await expect(nav).toBeInViewport()
  await page.setViewportSize({ width: 375, height: 740 })
  await expect(page.getByRole('button', { name: 'Open Menu' })).toBeVisible()
  await expect(nav).not.toBeInViewport()
  await context.close()
})

test('a clinic starts a free trial, activates it from the emailed link and lands in its own empty workspace', async ({
  page,
}) => {
  await page.goto('/api/login?signup=1')
  await expect(page.getByRole('heading', { name: 'Start your free trial' })).toBeVisible()
  await page.getByRole('button', { name: 'Start 14-day Free Trial' }).click()
  await expect(page.getByText('Clinic or hospital name is required')).toBeVisible()
  await page.getByLabel('Clinic or hospital name').fill('Aarogyam Eye Care, Nashik')
  await page.getByLabel('Your name').fill('Dr. Kavita Joshi')
  const email = `kavita.${Date.now()}@aarogyam.example`
  await page.getByLabel('Work email').fill(email)
  await page.getByLabel('Mobile number').fill('12345')
  await page.getByLabel('Password').fill('short')
  await page.getByRole('button', { name: 'Start 14-day Free Trial' }).click()
  await expect(page.getByText('Enter a valid mobile number, e.g. 98765 43210')).toBeVisible()
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible()
  await page.getByLabel('Mobile number').fill('94220 11223')
  await page.getByLabel('Password').fill('eye-care-nashik-2026')
  await page.getByRole('button', { name: 'Start 14-day Free Trial' }).click()

  // Not signed in yet: the form gives way to "Check your email".
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeFocused()
  await expect(page).toHaveTitle('Check your email · Arogya CRM')
  await expect(page.getByText(TRIAL_STARTED_MESSAGE)).toBeVisible()
  await expect(page.getByText(email)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Start 14-day Free Trial' })).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0)
  await page.setViewportSize({ width: 360, height: 740 })
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  )
  expect(overflow, '"Check your email" scrolls sideways at 360 px').toBeLessThanOrEqual(0)
  await page.screenshot({ path: 'test-results/e2e/screenshots/trial-check-email-360.png' })
  await page.setViewportSize({ width: 1280, height: 720 })

  // Signing in before activating is refused with the server's explanation.
  await page.getByRole('link', { name: 'Back to sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('eye-care-nashik-2026')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('alert')).toContainText(/verif/i)
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0)

  // The emailed link activates the account and signs in.
  const message = await readNewestEmail(email)
  await page.goto(verifyEmailPath(message))
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
  await expect(page.getByText('Aarogyam Eye Care, Nashik').first()).toBeVisible()
  await page.getByRole('link', { name: 'Patients', exact: true }).click()
  await expect(page.getByText('No patients found')).toBeVisible()
  await expect(page.getByText('Add your first patient')).toBeVisible()
})

test('a trial sign-up with an address that already has an account looks the same', async ({
  page,
}) => {
  await page.goto('/login?mode=signup')
  await page.getByLabel('Clinic or hospital name').fill('Sanjeevani Again')
  await page.getByLabel('Your name').fill('Someone Else')
  await page.getByLabel('Work email').fill('admin@sanjeevani.demo')
  await page.getByLabel('Mobile number').fill('94220 11224')
  await page.getByLabel('Password').fill('another-password-2026')
  await page.getByRole('button', { name: 'Start 14-day Free Trial' }).click()
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible()
  await expect(page.getByText(TRIAL_STARTED_MESSAGE)).toBeVisible()
  await expect(page.getByText('admin@sanjeevani.demo')).toBeVisible()
  // The owner is told by email instead; the account is unchanged.
  await page.getByRole('button', { name: 'Use a different email address' }).click()
  await expect(page.getByRole('heading', { name: 'Start your free trial' })).toBeVisible()
  await expect(page.getByLabel('Work email')).toHaveValue('')
  await login(page, 'admin@sanjeevani.demo', DEMO_PASSWORD)
})

test('the sign-in form shows what the server says when it refuses (throttled, unverified)', async ({
  page,
}) => {
  const refusals: {
    status: number
    headers: Record<string, string>
    body: { code: string; message: string }
  }[] = [
    {
      status: 429,
      headers: { 'retry-after': '300' },
      body: { code: 'RATE_LIMITED', message: 'Too many sign-in attempts. Try again in 5 minutes.' },
    },
    {
      status: 403,
      headers: {},
      body: { code: 'EMAIL_NOT_VERIFIED', message: 'Verify your email address to sign in.' },
    },
  ]
  for (const refusal of refusals) {
    await page.route('**/api/auth/sign-in/email', (route) =>
      route.fulfill({
        status: refusal.status,
        headers: refusal.headers,
        contentType: 'application/json',
        body: JSON.stringify(refusal.body),
      }),
    )
    await page.goto('/login')
    await page.getByLabel('Email').fill('someone@example.in')
    await page.getByLabel('Password').fill('whatever-2026')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect(page.getByRole('alert')).toHaveText(refusal.body.message)
    await page.unrouteAll()
  }
})
