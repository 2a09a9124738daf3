import { readFile } from 'node:fs/promises'
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, login, test } from './fixtures'

test('submit a support ticket, see it listed, open it and comment', async ({ page }) => {
  await login(page, 'nurse@sanjeevani.demo')
  await page.goto('/support')
  await expect(page.getByRole('heading', { name: 'Support Tickets', level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: 'FAQ page' })).toBeVisible()
  // A nurse sees only her own tickets: none yet in the demo.
  await expect(page.getByRole('button', { name: 'Submit Your First Ticket' })).toBeVisible()
  await expectNoAxeViolations(page, 'the support page')
  await expectNoSidewaysScroll(page, 'the support page')

  await page.getByRole('button', { name: 'Submit Your First Ticket' }).click()
  const dialog = page.getByRole('dialog', { name: 'Submit Support Ticket' })
  await expect(dialog.getByLabel('Category')).toHaveValue('technical')
  await expect(dialog.getByLabel('Priority')).toHaveValue('medium')
  await dialog.getByRole('button', { name: 'Submit Ticket' }).click()
  await expect(dialog.getByText('Subject is required')).toBeVisible()
  const subject = `Printer <b>label</b> misaligned ${Date.now()}`
  await dialog.getByLabel('Subject').fill(subject)
  await dialog.getByLabel('Priority').selectOption('high')
  await dialog.getByLabel('Description').fill('Patient labels print 5 mm too low since Monday.')
  // Attachments: several at once, a refused type explained, each removable before sending.
  const note = Buffer.from('Label printer: TSC TE244, driver 7.4, offset -5 mm.\n', 'utf8')
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n', 'latin1')
  await dialog.getByLabel('Attachments').setInputFiles([
    { name: 'printer-settings.txt', mimeType: 'text/plain', buffer: note },
    { name: 'label-sample.pdf', mimeType: 'application/pdf', buffer: pdf },
    { name: 'driver.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
  ])
  await expect(dialog.getByRole('alert')).toContainText(
    'driver.exe: this file type is not accepted',
  )
  const picked = dialog.getByRole('list', { name: 'Files to attach' })
  await expect(picked.getByRole('listitem')).toHaveCount(2)
  await picked.getByRole('button', { name: 'Remove label-sample.pdf' }).click()
  await expect(picked.getByRole('listitem')).toHaveCount(1)
  await expect(picked).toContainText('printer-settings.txt')
  await page.screenshot({ path: 'test-results/support-attach-1280.png' })
  const size = page.viewportSize()
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoSidewaysScroll(page, 'the submit dialog with a file at 360 px')
  await page.screenshot({ path: 'test-results/support-attach-360.png' })
  if (size) await page.setViewportSize(size)
  await expectNoAxeViolations(page, 'the submit dialog')
  await dialog.getByRole('button', { name: 'Submit Ticket' }).click()
  await expect(page.getByText('Support Ticket Submitted!', { exact: true })).toBeVisible()
  await expect(dialog).toBeHidden()

  const row = page.getByRole('listitem').filter({ hasText: subject })
  await expect(row).toContainText('Open')
  await expect(row).toContainText('High priority')
  await row.getByRole('button', { name: subject }).click()
  const detail = page.getByRole('dialog', { name: subject })
  await expect(detail.getByText('No comments yet.')).toBeVisible()
  // The file went up as a real upload and comes back byte for byte as a download.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    detail.getByRole('link', { name: 'printer-settings.txt' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('printer-settings.txt')
  expect(await readFile(await download.path())).toEqual(note)
  await detail.getByLabel('Add a comment').fill('It happens on both front-desk printers.')
  await detail.getByRole('button', { name: 'Send Comment' }).click()
  await expect(detail.getByText('It happens on both front-desk printers.')).toBeVisible()
  // The toasts time out first: one leaving mid-check is half transparent (axe: contrast).
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 })
  await expectNoAxeViolations(page, 'the ticket detail')
})

test('the admin sees the seeded tickets and may reopen the resolved one', async ({ page }) => {
  await login(page, 'admin@sanjeevani.demo')
  await page.goto('/support')
  const resolved = page
    .getByRole('listitem')
    .filter({ hasText: 'Training session for two new receptionists' })
  await expect(resolved).toContainText('Resolved')
  await resolved.getByRole('button', { name: 'Training session for two new receptionists' }).click()
  const detail = page.getByRole('dialog', { name: 'Training session for two new receptionists' })
  await expect(detail.getByText('Resolution')).toBeVisible()
  await expect(detail.getByRole('button', { name: 'Reopen Ticket' })).toBeVisible()
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.screenshot({ path: 'test-results/support-1280.png', fullPage: true })
  await page.keyboard.press('Escape')
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoSidewaysScroll(page, 'the support page at 360 px')
  await page.screenshot({ path: 'test-results/support-360.png', fullPage: true })
})
