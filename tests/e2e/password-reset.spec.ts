import {
  DEMO_PASSWORD,
  expect,
  expectNoAxeViolations,
  login,
  readNewestEmail,
  test,
} from './fixtures'

// Issue 40, item 7: "Forgot password?" on the sign-in page emails a link whose page sets a new
// password; a hospital admin sends a member one from /admin. The new password is the demo one
// again, so the other specs still sign in.

const MEMBER = 'doctor@smiledental.demo'
const ADMIN = 'admin@smiledental.demo'

const resetLink = async (after: string) => {
  let link = ''
  await expect
    .poll(async () => {
      const mail = await readNewestEmail(MEMBER)
      link = /\/reset-password#\S+/.exec(mail)?.[0] ?? ''
      return link !== '' && link !== after ? link : ''
    })
    .not.toBe('')
  return link
}

test('a member asks for a reset link from the sign-in page and chooses a new password', async ({
  page,
}) => {
  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible()
  await page.getByLabel('Email').fill(MEMBER)
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible()
  await expect(page.getByText(/If an account uses this email address/)).toBeVisible()

  await page.goto(await resetLink(''))
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  // The token leaves the address bar once read.
  await expect(page).toHaveURL(/\/reset-password$/)
  await expectNoAxeViolations(page, 'Reset password')
  await page.getByLabel(/^New password/).fill(DEMO_PASSWORD)
  await page.getByLabel('Confirm new password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Set new password' }).click()
  await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible()
  await login(page, MEMBER)
})

test('a hospital admin sends a member a reset link from the team list', async ({ page }) => {
  const before = /\/reset-password#\S+/.exec(await readNewestEmail(MEMBER))?.[0] ?? ''
  await login(page, ADMIN)
  await page.goto('/admin')
  const row = page.getByTestId('member-row').filter({ hasText: MEMBER })
  await row.getByRole('button', { name: /a password reset link$/ }).click()
  await expect(page.getByText('Password reset link sent', { exact: true })).toBeVisible()
  expect(await resetLink(before)).not.toBe(before)
  expect(await readNewestEmail(MEMBER)).toContain('hospital administrator')
})
