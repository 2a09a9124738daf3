import type { Page } from '@playwright/test'
import {
  expectNoSidewaysScroll,
  expectNoAxeViolations,
  expect,
  login,
  openAccountMenu,
  signOut,
  SUPER_ADMIN,
  test,
} from './fixtures'

const SHOTS = 'test-results/e2e/screenshots'

/** The element lies within the screen's width. */
async function expectWithinWidth(page: Page, selector: string, width: number) {
  const box = await page.locator(selector).boundingBox()
  expect(box, selector).not.toBeNull()
  expect(box!.x).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width).toBeLessThanOrEqual(width)
}

test('the account menu shows who is signed in and where, works by keyboard, and fits a phone', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
  const page = await context.newPage()
  await login(page, 'doctor@sanjeevani.demo')
  // The greeting uses the first name, never a title alone.
  const greeting = page.getByRole('heading', { level: 1, name: /^Welcome back, / })
  await expect(greeting).toHaveText('Welcome back, Rajesh!')
  await expect(page.getByRole('banner')).not.toContainText('Dr.')
  await expectNoSidewaysScroll(page, 'the dashboard at 360 px')

  await openAccountMenu(page)
  const menu = page.getByRole('menu')
  await expect(menu).toContainText('doctor@sanjeevani.demo')
  await expect(menu).toContainText('Doctor · Sanjeevani Multispeciality Hospital, Pune')
  await expect(menu.getByRole('menuitem', { name: 'Settings' })).toBeVisible()
  await expect(menu.getByRole('menuitem', { name: 'Sign Out' })).toHaveAttribute(
    'href',
    '/api/logout',
  )
  await expectWithinWidth(page, '[role="menu"]', 360)
  await expectNoSidewaysScroll(page, 'the open account menu at 360 px')
  await expectNoAxeViolations(page, 'the open account menu', { strict: true })
  await page.screenshot({ path: `${SHOTS}/shell-account-menu-360.png` })

  // Escape closes it and gives focus back; the keyboard opens it and follows a link.
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  const button = page.getByRole('button', { name: 'Account menu' })
  await expect(button).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(menu).toBeVisible()
  await expect(menu.getByRole('menuitem', { name: 'Settings' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/settings$/)
  await expect(page).toHaveTitle('Settings · Arogya CRM')
  await expect(menu).toBeHidden()

  await signOut(page)
  await expect(page).toHaveURL(/\/$/)
  expect((await page.request.get('/api/auth/user')).status()).toBe(401)
  await context.close()
})

test('very long unbroken names, emails and hospital names never widen the page', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
  const page = await context.newPage()
  const long = (seed: string) => seed.repeat(12)
  // The server keeps names short; the shell must cope anyway, so the user is made long here.
  await page.route('**/api/auth/user', async (route) => {
    const response = await route.fetch()
    if (!response.ok()) return route.fulfill({ response })
    const user = (await response.json()) as Record<string, unknown>
    return route.fulfill({
      response,
      json: {
        ...user,
        firstName: long('Venkataraghavan'),
        lastName: long('Subramaniam'),
        email: `${long('very.long.address')}@${long('hospital')}.example.in`,
        hospitalName: long('SanjeevaniMultispecialityHospital'),
      },
    })
  })
  await login(page, 'admin@sanjeevani.demo')
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 740 })
    for (const path of ['/', '/patients', '/billing', '/settings', '/no-such-page']) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expectNoSidewaysScroll(page, `${path} at ${width} px`)
    }
    await openAccountMenu(page)
    await expectWithinWidth(page, '[role="menu"]', width)
    await expectNoSidewaysScroll(page, `the open account menu at ${width} px`)
    await page.screenshot({ path: `${SHOTS}/shell-long-names-menu-${width}.png` })
    await page.keyboard.press('Escape')
  }
  // The full hospital name is there on hover.
  await expect(
    page.getByRole('banner').getByText(long('SanjeevaniMultispecialityHospital')),
  ).toHaveAttribute('title', long('SanjeevaniMultispecialityHospital'))
  await context.close()
})

test('a platform account lands on the Super Admin Dashboard and is told hospital screens are for staff', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await login(page, SUPER_ADMIN)
  const hospitalCalls: string[] = []
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname
    // The Super Admin Dashboard's own calls (/api/admin/*) are platform data, and the user's own
    // appearance (/api/me/preferences) is theirs; neither is a hospital's.
    if (
      path.startsWith('/api/') &&
      !path.startsWith('/api/auth/') &&
      !path.startsWith('/api/admin/') &&
      path !== '/api/me/preferences'
    )
      hospitalCalls.push(path)
  })
  await expect(page).toHaveURL(/\/super-admin$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Super Admin Dashboard' })).toBeVisible()
  await expect(page).toHaveTitle('Super Admin Dashboard · Arogya CRM')
  await expect(page.getByRole('link', { name: 'Super Admin' })).toHaveAttribute(
    'aria-current',
    'page',
  )

  for (const [path, title] of [
    ['/', 'Dashboard'],
    ['/dashboard', 'Dashboard'],
    ['/patients', 'Patients'],
    ['/manual-patient', 'Manual Entry'],
    ['/appointments', 'Appointments'],
  ] as const) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await expect(page.getByText('These screens are for hospital staff.')).toBeVisible()
    await expect(
      page.getByText('Platform accounts manage hospitals from the Super Admin Dashboard.'),
    ).toBeVisible()
    await expect(page.getByText(/Your role can/)).toHaveCount(0)
    await expect(page.getByText(/Welcome back/)).toHaveCount(0)
    await expect(page).toHaveTitle(`${title} · Arogya CRM`)
  }
  expect(hospitalCalls, 'hospital data asked for by a platform account').toEqual([])
  await expectNoAxeViolations(page, 'the hospital-staff panel', { strict: true })
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/patients')
  await expect(page.getByText('These screens are for hospital staff.')).toBeVisible()
  await expectNoSidewaysScroll(page, 'the hospital-staff panel at 360 px')
  await expectNoAxeViolations(page, 'the hospital-staff panel at 360 px', { strict: true })
  await page.screenshot({ path: `${SHOTS}/shell-super-admin-panel-360.png` })
  await page.getByRole('link', { name: 'Go to the Super Admin Dashboard' }).click()
  await expect(page).toHaveURL(/\/super-admin$/)
  await expect(page.getByRole('button', { name: 'Add Hospital' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Hospitals' })).toBeVisible()
  await expectNoAxeViolations(page, 'the Super Admin Dashboard', { strict: true })
  await context.close()
})

test('hospital staff opening /super-admin are told it is for platform accounts', async ({
  page,
}) => {
  await login(page, 'admin@smiledental.demo')
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
  await page.goto('/super-admin')
  await expect(page.getByText('This screen is for platform accounts.')).toBeVisible()
  await page.getByRole('link', { name: 'Go to the Dashboard' }).click()
  await expect(page.getByRole('heading', { name: /^Welcome back/ })).toBeVisible()
})
