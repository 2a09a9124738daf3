import { axe, expect, login, signOut, test } from './fixtures'

test('a sign-out link from another site asks first; the button signs out everywhere', async ({
  page,
  baseURL,
}) => {
  await login(page, 'nurse@sanjeevani.demo')
  const own = new URL(baseURL ?? 'http://127.0.0.1:5178')
  // Another site (localhost is not the same site as 127.0.0.1) sends the browser to /api/logout.
  const other = `http://localhost:${own.port}/robots.txt`
  await page.goto(other)
  await page.evaluate((target) => {
    window.location.href = target
  }, `${own.origin}/api/logout`)
  await expect(page.getByRole('heading', { name: 'Sign out?' })).toBeVisible()
  await expect(page).toHaveTitle('Sign out? · Arogya CRM')
  expect((await (await axe(page)).analyze()).violations).toEqual([])
  // Still signed in until the user says so.
  expect(await page.evaluate(() => fetch('/api/auth/user').then((r) => r.status))).toBe(200)
  await page.setViewportSize({ width: 360, height: 740 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  )

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(`${own.origin}/`)
  expect(await page.evaluate(() => fetch('/api/auth/user').then((r) => r.status))).toBe(401)
})

test("the app's own Sign Out link signs out at once", async ({ page }) => {
  await login(page, 'viewer@sanjeevani.demo')
  await signOut(page)
  await expect(page.getByRole('heading', { name: 'Sign out?' })).toHaveCount(0)
  expect(await page.evaluate(() => fetch('/api/auth/user').then((r) => r.status))).toBe(401)
})

test('signed-out pages ask nobody who is signed in and log no errors; signed in, the app does', async ({
  page,
}) => {
  const asked: string[] = []
  const errors: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/auth/user') asked.push(page.url())
  })
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  for (const path of ['/', '/pricing', '/add-ons', '/login', '/forgot-password']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  }
  expect(asked).toEqual([])
  expect(errors).toEqual([])
  expect(await page.evaluate(() => document.cookie)).not.toContain('arogya.signed_in')

  await login(page, 'receptionist@sanjeevani.demo')
  expect(asked.length).toBeGreaterThan(0)
  expect(await page.evaluate(() => document.cookie)).toContain('arogya.signed_in=1')
  await signOut(page)
  asked.length = 0
  await page.goto('/pricing')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(asked).toEqual([])
  expect(errors).toEqual([])
})
