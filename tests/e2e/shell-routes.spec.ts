import type { Page } from '@playwright/test'
import {
  DEMO_PASSWORD,
  expect,
  expectToastAccessible,
  login,
  nextTotpCode,
  signOut,
  SUPER_ADMIN,
  test,
} from './fixtures'

const SHOTS = 'test-results/e2e/screenshots'

/** Every staff route and the tab title it must show. */
const titles: [string, string][] = [
  ['/', 'Dashboard'],
  ['/dashboard', 'Dashboard'],
  ['/patients', 'Patients'],
  ['/manual-patient', 'Manual Entry'],
  ['/appointments', 'Appointments'],
  ['/billing', 'Billing & Invoices'],
  ['/campaigns', 'Marketing Campaigns'],
  ['/lead-generation', 'Lead Generation'],
  ['/live-monitoring', 'Live Monitoring'],
  ['/faqs', 'FAQ Management'],
  ['/support', 'Support Tickets'],
  ['/backup', 'Backup Settings'],
  ['/admin', 'Admin'],
  ['/settings', 'Settings'],
  ['/super-admin', 'Super Admin Dashboard'],
  ['/pricing', 'Pricing'],
  ['/add-ons', 'Add-ons'],
  ['/no-such-page', 'Page not found'],
]

test('every staff route names itself in the tab, on load and after moving in the app', async ({
  page,
}) => {
  await login(page, 'receptionist@sanjeevani.demo')
  await expect(page).toHaveTitle('Dashboard · Arogya CRM')
  for (const [path, title] of titles) {
    await page.goto(path)
    await expect(page, path).toHaveTitle(`${title} · Arogya CRM`)
  }
  // Moving without a reload keeps the title in step.
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  await nav.getByRole('link', { name: 'Patients', exact: true }).click()
  await expect(page).toHaveTitle('Patients · Arogya CRM')
  await nav.getByRole('link', { name: 'Manual Entry' }).click()
  await expect(page).toHaveTitle('Manual Entry · Arogya CRM')
  await nav.getByRole('link', { name: 'Dashboard' }).click()
  await expect(page).toHaveTitle('Dashboard · Arogya CRM')
})

test('an unknown path is the 404 page with HTTP status 404; app pages answer 200', async ({
  page,
}) => {
  const missing = await page.request.get('/no-such-page')
  expect(missing.status()).toBe(404)
  expect(missing.headers()['content-type']).toMatch(/text\/html/)
  for (const path of ['/patients', '/manual-patient', '/login', '/super-admin', '/']) {
    expect((await page.request.get(path)).status(), path).toBe(200)
  }
  const response = await page.goto('/no-such-page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible()
  await expect(page).toHaveTitle('Page not found · Arogya CRM')
  await expect(page).toHaveURL(/\/no-such-page$/)
})

async function signInOnThePage(page: Page, email: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

test('a staff link opened signed out goes to sign-in and back to it afterwards', async ({
  page,
}) => {
  await page.goto('/patients?search=kulkarni')
  await expect(page).toHaveURL(/\/login\?next=\/patients%3Fsearch%3Dkulkarni$/)
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await signInOnThePage(page, 'nurse@sanjeevani.demo')
  await expect(page).toHaveURL(/\/patients\?search=kulkarni$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Patients', exact: true })).toBeVisible()
  await expect(page.getByPlaceholder('Search patients by name, email, or phone...')).toBeVisible()
  await signOut(page)
  await expect(page).toHaveURL(/\/$/)

  await page.goto('/manual-patient')
  await expect(page).toHaveURL(/\/login\?next=\/manual-patient$/)
  await signInOnThePage(page, 'nurse@sanjeevani.demo')
  await expect(page).toHaveURL(/\/manual-patient$/)
  await expect(page).toHaveTitle('Manual Entry · Arogya CRM')
})

test('sign-in ignores a next that leaves the site, and public or unknown paths need no sign-in', async ({
  page,
}) => {
  for (const next of [
    'https://evil.example',
    '//evil.example/patients',
    '/\\evil.example',
    '/%2f%2fevil.example',
    'javascript:alert(1)',
  ]) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`)
    await signInOnThePage(page, 'viewer@sanjeevani.demo')
    await expect(page.getByRole('heading', { name: /^Welcome back/ })).toBeVisible()
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
    await signOut(page)
    await expect(page).toHaveURL(/\/$/)
  }
  await page.goto('/pricing')
  await expect(page).toHaveURL(/\/pricing$/)
  await page.goto('/no-such-page')
  await expect(page).toHaveURL(/\/no-such-page$/)
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible()
})

test('after the two-factor step the super admin comes back to the page asked for', async ({
  page,
}) => {
  await page.goto('/settings')
  await expect(page).toHaveURL(/\/login\?next=\/settings$/)
  await signInOnThePage(page, SUPER_ADMIN)
  await page.getByLabel('Authentication code').fill(await nextTotpCode())
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/settings$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
})

for (const width of [360, 1280]) {
  test(`a toast after saving a patient does not cover the button just pressed (${width} px)`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width, height: 740 } })
    const page = await context.newPage()
    await login(page, 'receptionist@smiledental.demo')
    await page.goto('/manual-patient')
    await page.getByLabel('Full Name').fill('Toast Test Kumar')
    // A fresh mobile number each run (a demo database may refuse a repeated one some day).
    const mobile = `98${String(Date.now()).slice(-8)}`
    await page.getByLabel('Phone').fill(`${mobile.slice(0, 5)} ${mobile.slice(5)}`)
    const submit = page.getByRole('button', { name: 'Add Patient to System' })
    await submit.click()
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Patient Added' })
    await expect(toast).toBeVisible()
    await expect(toast).toHaveAttribute('data-mounted', 'true')
    await page.waitForTimeout(500) // the toast's entry animation
    await expectToastAccessible(page)
    const toastBox = await toast.boundingBox()
    const buttonBox = await submit.boundingBox()
    const accountBox = await page.getByRole('button', { name: 'Account menu' }).boundingBox()
    expect(toastBox && buttonBox && accountBox).toBeTruthy()
    const overlaps = (
      a: { x: number; y: number; width: number; height: number },
      b: { x: number; y: number; width: number; height: number },
    ) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    expect(overlaps(toastBox!, buttonBox!), 'toast covers the submit button').toBe(false)
    expect(overlaps(toastBox!, accountBox!), 'toast covers the account menu').toBe(false)
    // Top right on a desktop, across the top on a phone.
    expect(toastBox!.y).toBeLessThan(200)
    if (width >= 640) expect(toastBox!.x + toastBox!.width).toBeGreaterThan(width - 40)
    else expect(toastBox!.width).toBeGreaterThan(width - 40)
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    )
    expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0)
    await page.screenshot({ path: `${SHOTS}/shell-toast-${width}.png` })
    await context.close()
  })
}
