import {
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  readNewestEmail,
  SUPER_ADMIN,
  test,
} from './fixtures'

const SHOTS = 'test-results/e2e/screenshots'

// Issue 28, Lead Generation: a hospital admin requests a campaign with the budget slider, sees
// the server's figures in the list; the super admin approves it with a note and the admin is
// emailed. Axe, 360 px and screenshots on the way.
test('an admin requests a campaign with the slider and the super admin approves it', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await login(page)
  await page.goto('/lead-generation')
  await expect(page.getByRole('heading', { level: 1, name: 'Lead Generation' })).toBeVisible()
  await expect(page).toHaveTitle(/^Lead Generation · Arogya CRM/)
  const requests = page.getByRole('list', { name: 'Your campaign requests' }).getByRole('listitem')
  // The demo seed: one requested, one active.
  await expect(requests).toHaveCount(2)
  await expect(
    page.getByRole('heading', { name: 'Why run lead generation with Arogya' }),
  ).toBeVisible()

  await page.getByRole('button', { name: 'Request Campaign' }).click()
  const dialog = page.getByRole('dialog', { name: 'Request a Lead Generation Campaign' })
  const slider = dialog.getByRole('slider', { name: 'Daily budget' })
  await expect(slider).toHaveValue('1000')
  await expect(dialog.getByTestId('leads-per-day')).toHaveText('20–40')
  await slider.focus()
  await page.keyboard.press('ArrowRight')
  await expect(slider).toHaveValue('1500')
  await expect(dialog.getByTestId('leads-per-day')).toHaveText('30–60')
  await slider.fill('10000')
  await expect(dialog.getByText('₹10,000', { exact: true })).toBeVisible()
  await expect(dialog.getByTestId('leads-per-day')).toHaveText('200–400')
  await expect(dialog.getByTestId('leads-per-month')).toHaveText('6,000–12,000')

  // Own vs professional: choosing one clears the other.
  const own = dialog.getByRole('checkbox', { name: 'I have my own ad creative' })
  const pro = dialog.getByRole('checkbox', { name: /I need a professional ad creative/ })
  await pro.check()
  await expect(dialog.getByTestId('one-time-cost')).toHaveText('₹1,000')
  await own.check()
  await expect(pro).not.toBeChecked()
  await expect(dialog.getByTestId('one-time-cost')).toHaveText('₹0')
  await dialog.getByRole('checkbox', { name: 'I have my own video' }).check()
  await dialog.getByRole('checkbox', { name: /I need professional video editing/ }).check()
  await expect(dialog.getByRole('checkbox', { name: 'I have my own video' })).not.toBeChecked()
  await expect(dialog.getByTestId('one-time-cost')).toHaveText('₹5,000')
  await dialog
    .getByLabel('Notes')
    .fill('Cataract surgery camp for Kothrud and Warje, ads in Marathi')
  await expectNoAxeViolations(page, 'the campaign request dialog')
  await dialog.getByRole('button', { name: 'Submit Request' }).click()
  await expect(page.getByText('Campaign Request Submitted!')).toBeVisible()
  await expect(page.getByText(/team will contact you soon/)).toBeVisible()
  await expect(dialog).toBeHidden()

  await expect(requests).toHaveCount(3)
  const mine = requests.first()
  await expect(mine).toContainText('₹10,000')
  await expect(mine).toContainText('200–400')
  await expect(mine).toContainText('₹5,000')
  await expect(mine).toContainText('Requested')
  await expectNoAxeViolations(page, 'the Lead Generation page')
  await page.screenshot({ path: `${SHOTS}/lead-generation-1280.png`, fullPage: true })
  await page.setViewportSize({ width: 360, height: 740 })
  await expectNoSidewaysScroll(page, 'Lead Generation at 360 px')
  await page.screenshot({ path: `${SHOTS}/lead-generation-360.png`, fullPage: true })
  await context.close()

  // The platform side: the super admin approves it with a note.
  const platform = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const sa = await platform.newPage()
  await login(sa, SUPER_ADMIN)
  await expect(sa).toHaveURL(/\/super-admin$/)
  await sa.getByRole('tab', { name: 'Lead Generation' }).click()
  await sa.getByRole('combobox', { name: 'Show requests' }).selectOption('requested')
  const rows = sa.getByRole('list', { name: 'Lead-generation requests' }).getByRole('listitem')
  const row = rows.filter({ hasText: 'Cataract surgery camp' })
  await expect(row).toContainText('Sanjeevani Multispeciality Hospital, Pune')
  await expect(row).toContainText('₹10,000')
  await row.getByLabel('Note to the hospital (optional)').fill('Ads go live on Monday')
  await expectNoAxeViolations(sa, 'the Lead Generation tab')
  await row.getByRole('button', { name: /^Approve:/ }).click()
  await expect(sa.getByText('Request updated')).toBeVisible()
  await expect(rows.filter({ hasText: 'Cataract surgery camp' })).toHaveCount(0)
  await sa.getByRole('combobox', { name: 'Show requests' }).selectOption('approved')
  await expect(rows.filter({ hasText: 'Cataract surgery camp' })).toContainText('Approved')
  await expect(
    rows.filter({ hasText: 'Cataract surgery camp' }).getByRole('button', { name: /^Activate:/ }),
  ).toBeVisible()
  await sa.screenshot({ path: `${SHOTS}/lead-generation-admin-1280.png`, fullPage: true })
  await platform.close()

  const email = await readNewestEmail('admin@sanjeevani.demo')
  expect(email).toContain('is now: Approved')
  expect(email).toContain('Ads go live on Monday')
})
