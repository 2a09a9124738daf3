import {
  createLeadViaApi,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  randomMobile,
  test,
  uniqueName,
} from './fixtures'

test('an admin creates a campaign, sees a new lead counted, pauses and resumes it, and records spend', async ({
  page,
}) => {
  test.slow()
  await login(page, 'admin@sanjeevani.demo')
  await page.goto('/campaigns')
  await expect(page.getByRole('heading', { name: 'Marketing Campaigns', level: 1 })).toBeVisible()
  await expect(page).toHaveTitle(/Marketing Campaigns/)
  const summary = page.getByRole('region', { name: 'Campaign summary' })
  await expect(summary).toContainText('Total Budget')
  await expect(summary).toContainText(/\d+ of \d+ campaigns/)
  await expect(page.getByRole('listitem').filter({ hasText: 'Paused' }).first()).toBeVisible()
  await expectNoAxeViolations(page, 'the campaigns page')

  const name = uniqueName('Diwali', 'Eye Camp')
  await page.getByRole('button', { name: 'New Campaign' }).click()
  const dialog = page.getByRole('dialog', { name: 'New Campaign' })
  await dialog.getByLabel('Campaign name').fill(name)
  await dialog.getByLabel('Type').selectOption({ label: 'Instagram' })
  await dialog.getByLabel('Budget (₹)').fill('50,000')
  await dialog.getByLabel('Audience key 1').fill('age')
  await dialog.getByLabel('Audience value 1').fill('25-45')
  await dialog.getByRole('button', { name: 'Add audience row' }).click()
  await dialog.getByLabel('Audience key 2').fill('locations')
  await dialog.getByLabel('Audience value 2').fill('Kothrud, Baner')
  await expectNoAxeViolations(page, 'the New Campaign dialog')
  await dialog.getByRole('button', { name: 'Create Campaign' }).click()
  await expect(page.getByText('Campaign created successfully', { exact: true })).toBeVisible()
  await expect(dialog).toBeHidden()

  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) })
  await expect(card).toContainText('Draft')
  await expect(card).toContainText('locations: Kothrud, Baner')
  await expect(card).toContainText('₹0.00 of ₹50,000.00')
  await expect(card.locator('dd').first()).toHaveText('0')

  // A lead carrying the campaign's name is counted (never typed in).
  await createLeadViaApi(page, {
    name: uniqueName('Sunita', 'Patil'),
    phone: randomMobile(),
    source: 'walk-in',
    priority: 'medium',
    campaign: name,
  })
  await page.reload()
  await expect(card.locator('dd').first()).toHaveText('1')

  await card.getByRole('button', { name: 'Activate' }).click()
  await expect(card).toContainText('Active')
  await card.getByRole('button', { name: 'Pause' }).click()
  await expect(card.getByRole('button', { name: 'Resume' })).toBeVisible()
  await expect(card.getByRole('button', { name: 'Pause' })).toHaveCount(0)
  await card.getByRole('button', { name: 'Resume' }).click()
  await expect(card.getByRole('button', { name: 'Pause' })).toBeVisible()

  await card.getByRole('button', { name: 'View Details' }).click()
  const details = page.getByRole('dialog', { name })
  await expect(details.getByRole('img', { name: /Leads and spend per day/ })).toBeVisible()
  await details.getByLabel('Spent that day (₹)').fill('1,500')
  await details.getByRole('button', { name: 'Save spend' }).click()
  await expect(page.getByText('Campaign updated successfully').first()).toBeVisible()
  await expect(details).toContainText('₹1,500.00')
  await expectNoAxeViolations(page, 'the campaign details')
  await page.screenshot({ path: 'test-results/campaigns-details-1280.png' })
  await details.getByRole('button', { name: 'Close' }).click()
  await expect(card).toContainText('₹1,500.00 of ₹50,000.00')

  await page.screenshot({ path: 'test-results/campaigns-1280.png', fullPage: false })
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoSidewaysScroll(page, 'the campaigns page at 360 px')
  await page.screenshot({ path: 'test-results/campaigns-360.png', fullPage: false })
})

test('a viewer sees the campaigns but no controls that change them', async ({ page }) => {
  await login(page, 'viewer@sanjeevani.demo')
  await page.goto('/campaigns')
  await expect(page.getByRole('button', { name: 'View Details' }).first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'New Campaign' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Edit Campaign' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0)
  await page.getByLabel('Status').selectOption({ label: 'Draft' })
  await expect(page.getByRole('heading', { name: 'Monsoon Fever Clinic – Jul' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Activate' })).toHaveCount(0)
})
