import { readFile } from 'node:fs/promises'
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, login, test } from './fixtures'

// Issue 29, Backup Settings (/backup): the demo admin creates a configuration, runs it, sees the
// log turn success, downloads the encrypted file, dry-runs and restores it (merge: the e2e
// database is shared, so nothing is lost), checks the same file uploaded and a corrupted one.

const PHONE = { width: 360, height: 740 }

test('an admin configures a backup, runs it, downloads it and restores it after a dry run', async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000)
  // A retry runs on the same database, beside the first try's configuration: it picks another
  // frequency, so its card is the only one with its name.
  const frequency = ['Weekly', 'Monthly', 'Every Hour'][testInfo.retry] ?? 'Weekly'
  const name = `Offline · ${frequency}`
  await login(page)
  await page.goto('/backup')
  await expect(page).toHaveTitle('Backup Settings · Arogya CRM')
  await expect(page.getByRole('heading', { name: 'Backup Settings', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Recent Backup Activity' })).toBeVisible()
  await expectNoAxeViolations(page, 'Backup Settings')

  // The dialog: at least one data type; the Drive token only for Google Drive.
  await page.getByRole('button', { name: 'New Configuration' }).click()
  const dialog = page.getByRole('dialog', { name: 'New Backup Configuration' })
  for (const type of ['Leads', 'Sales', 'Billing'])
    await dialog.getByRole('checkbox', { name: new RegExp(`^${type}`) }).uncheck()
  await dialog.getByRole('button', { name: 'Create Configuration' }).click()
  await expect(dialog.getByText('Select at least one data type')).toBeVisible()
  await expect(dialog.getByLabel('Google Drive Access Token')).toHaveCount(0)
  await dialog.getByLabel('Backup Type').selectOption('gdrive')
  await expect(dialog.getByLabel('Google Drive Access Token')).toBeVisible()
  await expect(dialog.getByLabel('Folder ID (optional)')).toBeVisible()
  await dialog.getByRole('checkbox', { name: /^Leads/ }).check()
  await dialog.getByRole('button', { name: 'Create Configuration' }).click()
  await expect(dialog.getByText('Google Drive needs an access token')).toBeVisible()
  await expectNoAxeViolations(page, 'the New Backup Configuration dialog')
  await dialog.getByLabel('Backup Type').selectOption('offline')
  await expect(dialog.getByLabel('Google Drive Access Token')).toHaveCount(0)
  await dialog.getByLabel('Frequency').selectOption({ label: frequency })
  await dialog.getByRole('checkbox', { name: /^Billing/ }).check()
  await dialog.getByRole('button', { name: 'Create Configuration' }).click()
  await expect(page.getByText('Backup Configuration Created', { exact: true })).toBeVisible()
  await expect(dialog).toBeHidden()

  const card = page.getByRole('listitem', { name })
  await expect(card).toContainText('Leads, Billing')
  await expect(card).toContainText('Never')
  const active = card.getByRole('switch', { name: 'Active' })
  await expect(active).toBeChecked()
  await active.uncheck()
  await expect(page.getByText('Configuration Updated', { exact: true })).toBeVisible()
  await expect(card.getByText('Paused')).toBeVisible()
  await active.check()
  await expect(card.getByText('Paused')).toBeHidden()
  await expect(active).toBeChecked()

  // Run Now: a bar while it runs, then a success log with its size and record count. The demo
  // hospital backs up in well under a second, so the first answers about the run say it is
  // still at 40% for a moment: the bar shows, then the real answer ends it.
  let runId = ''
  let heldBack = 0
  const running = (log: Record<string, unknown>) => ({
    ...log,
    status: 'running',
    progress: 40,
    finishedAt: null,
    dataSize: null,
    recordCount: null,
    downloadable: false,
  })
  await page.route(/\/api\/backup\/run\/[^/]+$/, async (route) => {
    const response = await route.fetch()
    const body = (await response.json()) as { log: { id: string } }
    runId = body.log.id
    await route.fulfill({ response, json: body })
  })
  await page.route(/\/api\/backup\/logs(\?limit=10|\/[^/?]+)$/, async (route) => {
    const response = await route.fetch()
    const body = (await response.json()) as {
      log?: Record<string, unknown>
      logs?: Record<string, unknown>[]
    }
    if (runId && heldBack < 3) {
      heldBack += 1
      if (body.log?.id === runId) body.log = running(body.log)
      if (body.logs) body.logs = body.logs.map((l) => (l.id === runId ? running(l) : l))
    }
    await route.fulfill({ response, json: body })
  })
  await card.getByRole('button', { name: `Run Now: ${name}` }).click()
  await expect(page.getByText('Backup Started', { exact: true })).toBeVisible()
  const bar = card.getByRole('progressbar', { name: 'Backing up…' })
  await expect(bar).toHaveAttribute('aria-valuenow', '40')
  await expect(card.getByRole('button', { name: `Running: ${name}` })).toBeDisabled()
  await expect(bar).toBeHidden({ timeout: 30_000 })
  await page.unrouteAll({ behavior: 'wait' })
  const entry = page
    .getByRole('list', { name: 'Backup logs' })
    .getByRole('listitem')
    .filter({ hasText: 'Leads, Billing' })
    .first()
  await expect(entry.getByText('Success', { exact: true })).toBeVisible({ timeout: 60_000 })
  await expect(entry).toContainText(/Size:\s*[\d.]+ (B|KB|MB|GB)/)
  await expect(entry).toContainText(/Records:\s*[\d,]+/)
  await expect(card).not.toContainText('Never')
  await expectNoAxeViolations(page, 'Backup Settings after a run')

  // The file: encrypted, non-empty.
  const download = page.waitForEvent('download')
  await entry.getByRole('link', { name: /^Download the backup of / }).click()
  const file = await readFile(await (await download).path())
  expect(file.byteLength).toBeGreaterThan(100)

  // Restore from the log: the dry run first, then the restore with its bar.
  await entry.getByRole('button', { name: /^Restore the backup of / }).click()
  const restore = page.getByRole('dialog', { name: 'Restore Backup' })
  await expect(restore.getByRole('radio', { name: /^Merge/ })).toBeChecked()
  await restore.getByRole('button', { name: 'Dry Run' }).click()
  await expect(
    restore.getByRole('heading', { name: 'Dry run: nothing has changed yet' }),
  ).toBeVisible({
    timeout: 30_000,
  })
  const preview = restore.getByRole('table', { name: 'What a merge restore would change' })
  await expect(preview.getByRole('rowheader', { name: 'Leads' })).toBeVisible()
  await expect(preview.getByRole('rowheader', { name: 'Invoices' })).toBeVisible()
  await expectNoAxeViolations(page, 'the dry run')
  await page.setViewportSize(PHONE)
  await expectNoSidewaysScroll(page, 'the dry run at 360 px')
  await page.screenshot({ path: 'test-results/backup-dry-run-360.png' })
  await page.setViewportSize({ width: 1280, height: 800 })
  await restore.getByRole('button', { name: 'Restore', exact: true }).click()
  await expect(restore.getByText('Restore complete')).toBeVisible({ timeout: 60_000 })
  await expect(restore.getByRole('progressbar', { name: 'Restore complete' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  )
  await expect(page.getByText('Backup Restored', { exact: true })).toBeVisible()
  await restore.getByRole('button', { name: 'Done' }).click()

  // The downloaded file, uploaded back: its dry run in Replace mode. A corrupted one is refused.
  await page.getByRole('button', { name: 'Restore from File' }).click()
  await restore.getByLabel('Backup file').setInputFiles({
    name: 'broken.backup',
    mimeType: 'application/octet-stream',
    buffer: Buffer.concat([file.subarray(0, 64), Buffer.alloc(64, 7)]),
  })
  await restore.getByRole('button', { name: 'Dry Run' }).click()
  await expect(restore.getByRole('alert')).toContainText('This backup cannot be restored')
  await page.screenshot({ path: 'test-results/backup-refused-file.png' })
  await restore.getByLabel('Backup file').setInputFiles({
    name: 'sanjeevani.backup',
    mimeType: 'application/octet-stream',
    buffer: file,
  })
  await restore.getByRole('radio', { name: /^Replace/ }).check()
  await restore.getByRole('button', { name: 'Dry Run' }).click()
  await expect(
    restore.getByRole('table', { name: 'What a replace restore would change' }),
  ).toBeVisible({ timeout: 30_000 })
  await expect(restore.getByRole('button', { name: 'Restore', exact: true })).toBeEnabled()
  await restore.getByRole('button', { name: 'Cancel' }).click()
  await expect(restore).toBeHidden()

  // A phone: the whole screen fits 360 px.
  await page.setViewportSize(PHONE)
  await page.reload()
  await expect(entry.getByText('Success', { exact: true })).toBeVisible()
  await expectNoSidewaysScroll(page, 'Backup Settings at 360 px')
  await page.screenshot({ path: 'test-results/backup-360.png', fullPage: true })
  await expectNoAxeViolations(page, 'Backup Settings at 360 px')
})

test('a nurse is told backups are managed by the hospital admin', async ({ page }) => {
  await login(page, 'nurse@sanjeevani.demo')
  await page.goto('/backup')
  await expect(page).toHaveTitle('Backup Settings · Arogya CRM')
  await expect(page.getByText(/Backups are managed by your hospital’s admin/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'New Configuration' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Restore from File' })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Recent Backup Activity' })).toHaveCount(0)
})
