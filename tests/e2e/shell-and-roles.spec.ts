import { expect, login, test } from './fixtures'

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

test('only the super admin sees the Super Admin link; other screens show a coming-soon panel', async ({
  page,
}) => {
  await login(page, 'admin@smiledental.demo')
  await expect(page.getByRole('link', { name: 'Super Admin' })).toHaveCount(0)
  await page.getByRole('link', { name: 'Billing' }).click()
  await expect(page.getByText('Billing & Invoices is coming soon')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page')
  await page.goto('/api/logout')
  await login(page, 'superadmin@arogya.demo')
  await expect(page.getByRole('link', { name: 'Super Admin' })).toBeVisible()
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
  await expect(page.getByRole('heading', { name: 'Patients' })).toBeVisible()
  await expect(nav).not.toBeInViewport()
  await context.close()
})

test('a clinic starts a free trial from the sign-up form and lands in its own empty workspace', async ({
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
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
  await expect(page.getByText('Aarogyam Eye Care, Nashik').first()).toBeVisible()
  await page.getByRole('link', { name: 'Patients', exact: true }).click()
  await expect(page.getByText('No patients found')).toBeVisible()
  await expect(page.getByText('Add your first patient')).toBeVisible()
})
