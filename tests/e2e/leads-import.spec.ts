import { readFile } from 'node:fs/promises'
import {
  expectNoAxeViolations,
  createLeadViaApi,
  expect,
  expectNoSidewaysScroll,
  login,
  randomMobile,
  skipLeadsTour,
  test,
  uniqueName,
} from './fixtures'

// Import CSV of leads (issue 8): preview, column mapping, progress, summary, error report.

const SHOTS = 'test-results/e2e/screenshots'
const RECEPTIONIST = 'receptionist@sanjeevani.demo'
const VIEWER = 'viewer@sanjeevani.demo'
const PHONE = { width: 360, height: 740 }

test('Import CSV: preview and mapping, progress, summary, the error report', async ({ page }) => {
  await skipLeadsTour(page)
  await login(page, RECEPTIONIST)
  await page.goto('/leads')
  const known = await createLeadViaApi(page, {
    name: uniqueName('Known', 'Rao'),
    phone: randomMobile(),
    source: 'walk-in',
  })
  const fresh = uniqueName('Imported', 'Shah')
  const freshPhone = randomMobile()
  const csv = [
    'Full Name,Mobile,Email,Treatment,Campaign',
    `${fresh},${freshPhone},imported@example.com,Dental cleaning,Diwali`,
    `Repeat Caller,${known.phone},,Root canal,`,
    '=HYPERLINK("http://evil"),not a phone,,,',
  ].join('\n')

  await page.getByRole('button', { name: 'Import CSV' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import CSV' })
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'leads.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${csv}\n`),
  })
  // The preview: the header and the three rows; the mapping guessed from the headers.
  const preview = dialog.getByRole('region', { name: 'Preview of the file' })
  await expect(preview.getByRole('columnheader', { name: 'Full Name' })).toBeVisible()
  await expect(preview.getByRole('row')).toHaveCount(4)
  await expect(preview).toContainText(fresh)
  await expect(dialog.getByLabel('Name')).toHaveValue('Full Name')
  await expect(dialog.getByLabel('Phone')).toHaveValue('Mobile')
  await expect(dialog.getByLabel('Email')).toHaveValue('Email')
  await expect(dialog.getByLabel('Service interest')).toHaveValue('Treatment')
  await expect(dialog.getByLabel('Campaign')).toHaveValue('Campaign')
  await expect(dialog.getByLabel('Notes')).toHaveValue('')
  // A required field left unmapped is named; mapping it again lets the import start.
  await dialog.getByLabel('Phone').selectOption('')
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog.getByText('Pick the column with the phone')).toBeVisible()
  await dialog.getByLabel('Phone').selectOption('Mobile')
  await expectNoAxeViolations(page, 'the Import CSV dialog with its preview')
  await dialog.getByRole('button', { name: 'Import' }).click()

  const bar = dialog.getByRole('progressbar')
  await expect(bar).toBeVisible()
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 20_000 })
  const summary = dialog.getByRole('status').filter({ hasText: 'Import summary' })
  await expect(summary).toContainText('New leads1')
  await expect(summary).toContainText('Merged1')
  await expect(summary).toContainText('Failed rows1')
  await expectNoAxeViolations(page, 'the import summary')

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: 'Download error report' }).click(),
  ])
  const report = await readFile((await download.path()) ?? '', 'utf8')
  expect(report.split('\r\n')[0]).toBe('Row,Column,Error,Full Name,Mobile,Email,Treatment,Campaign')
  expect(report).toContain(
    `4,Mobile,"Not a valid phone number, e.g. 98765 43210","'=HYPERLINK(""http://evil"")"`,
  )

  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(dialog).toHaveCount(0)
  // The list refreshed: the new lead is there, from the CSV import.
  await page.getByRole('searchbox', { name: 'Search leads' }).fill(fresh)
  await expect(page.getByTestId('lead-row')).toHaveCount(1)
  await expect(page.getByTestId('lead-row')).toContainText('CSV import')
})

test('Import CSV at 360 px: no sideways scroll; a viewer has no Import CSV', async ({ page }) => {
  await skipLeadsTour(page)
  await page.setViewportSize(PHONE)
  await login(page, RECEPTIONIST)
  await page.goto('/leads')
  await page.getByRole('button', { name: 'Import CSV' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import CSV' })
  const wide = ['Full Name', 'Phone Number', 'E-mail', 'Notes', 'Campaign', 'Priority', 'Source']
  const row = [
    'Someone With A Very Long Name Indeed',
    randomMobile(),
    'someone.long@example.com',
    'x'.repeat(120),
    'Campaign',
    'high',
    'Newspaper',
  ]
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'wide.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${wide.join(',')}\n${row.join(',')}\n`),
  })
  await expect(dialog.getByLabel('Phone')).toHaveValue('Phone Number')
  await expect(dialog.getByLabel('Priority')).toHaveValue('Priority')
  await expect(dialog.getByLabel('Source label')).toHaveValue('Source')
  const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)
  expect(overflow, 'the dialog scrolls sideways').toBeLessThanOrEqual(0)
  await expectNoSidewaysScroll(page, 'the Import CSV dialog at 360 px')
  await expectNoAxeViolations(page, 'the Import CSV dialog at 360 px')
  await page.screenshot({ path: `${SHOTS}/leads-import-360.png`, fullPage: true })
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog.getByRole('status').filter({ hasText: 'Import summary' })).toBeVisible({
    timeout: 20_000,
  })
  await expectNoSidewaysScroll(page, 'the import summary at 360 px')
  await page.screenshot({ path: `${SHOTS}/leads-import-summary-360.png` })
  await dialog.getByRole('button', { name: 'Done' }).click()

  await page.context().clearCookies()
  await login(page, VIEWER)
  await page.goto('/leads')
  await expect(page.getByRole('heading', { name: 'Lead Management Dashboard' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Import CSV' })).toHaveCount(0)
})
