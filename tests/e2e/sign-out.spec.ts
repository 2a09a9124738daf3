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
