import { expect, expectNoAxeViolations, expectNoSidewaysScroll, login, test } from './fixtures'

// Issue 26: Settings → General, the hospital's GST details, UPI id and the booking page card.

const ADMIN = 'admin@sanjeevani.demo'
const VIEWER = 'viewer@sanjeevani.demo'
/** Valid GSTINs (right check character) of Maharashtra, the demo hospital's state. */
const GSTINS = ['27AAPFU0939F1ZV', '27AABCU9603R1ZN']

test('an admin edits the GSTIN and UPI ID and sees them saved', async ({ page }) => {
  await login(page, ADMIN)
  await page.goto('/settings?tab=general')
  await expect(page.getByRole('tab', { name: 'General', selected: true })).toBeVisible()
  const gstin = page.getByLabel('GSTIN')
  await expect(gstin).toBeEditable()
  const next = (await gstin.inputValue()) === GSTINS[0] ? GSTINS[1]! : GSTINS[0]!
  const upi = `desk${Date.now() % 100000}@okaxis`

  // A wrong check character is caught before anything is sent.
  await gstin.fill(`${next.slice(0, 14)}${next.endsWith('A') ? 'B' : 'A'}`)
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('This GSTIN’s last character does not check out')).toBeVisible()

  await gstin.fill(next.toLowerCase())
  await page.getByLabel('State (GST)').selectOption('27')
  await page.getByLabel('UPI ID').fill(upi)
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Settings saved successfully')).toBeVisible()

  await page.reload()
  await expect(page.getByLabel('GSTIN')).toHaveValue(next)
  await expect(page.getByLabel('UPI ID')).toHaveValue(upi)
  await expect(page.getByRole('heading', { name: 'Booking page' })).toBeVisible()
  await expect(page.getByText(/\/book\/[a-z0-9-]+$/)).toBeVisible()
  await expectNoAxeViolations(page, 'Settings → General')

  await page.setViewportSize({ width: 360, height: 740 })
  await expect(page.getByLabel('GSTIN')).toBeVisible()
  await expectNoSidewaysScroll(page, 'Settings → General at 360 px')
})

test('a viewer reads the settings but cannot change them', async ({ page }) => {
  await login(page, VIEWER)
  await page.goto('/settings?tab=general')
  await expect(page.getByLabel('GSTIN')).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0)
  await expect(page.getByText(/Only your hospital.s admin can change these/).first()).toBeVisible()
  await expectNoAxeViolations(page, 'Settings → General, read-only')
})
