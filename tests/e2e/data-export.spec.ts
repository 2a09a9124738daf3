import { readFile } from 'node:fs/promises'
import { unzipSync } from 'fflate'
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, login, test } from './fixtures'

// Issue 27, Settings → Data on a 360 px phone: an admin exports the hospital's data, watches the
// progress bar, downloads the zip and finds patients.csv in it; Delete All Data refuses a wrong
// password (the run's demo data is shared by other specs, so nothing is really deleted here;
// tests/integration/data-export-delete.api.test.ts erases for real). A viewer sees why not.

const PHONE = { width: 360, height: 740 }
const HOSPITAL = 'Sanjeevani Multispeciality Hospital, Pune'

test('an admin exports the data, opens the zip, and Delete All Data asks for the password', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await login(page)
  await page.goto('/settings?tab=data')
  await expect(page.getByRole('heading', { name: 'Export Data' })).toBeVisible()
  // Issue 39: the hospital's storage (Enterprise: 50 GB) as a bar.
  await expect(page.getByRole('progressbar', { name: 'Storage' })).toHaveAttribute(
    'aria-valuetext',
    /^Storage: .+ of 50 GB used$/,
  )
  await expect(page.getByText(/^Storage: .+ of 50 GB used$/)).toBeVisible()
  await expectNoSidewaysScroll(page, 'Settings → Data at 360px')
  await expectNoAxeViolations(page, 'Settings → Data')

  await page.getByRole('button', { name: 'Export Data' }).click()
  await expect(page.getByRole('progressbar', { name: /Data export/ })).toBeVisible()
  const link = page.getByRole('link', { name: /Download zip/ })
  await expect(link).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('progressbar', { name: /Data export/ })).toHaveAttribute(
    'aria-valuenow',
    '100',
  )
  const download = page.waitForEvent('download')
  await link.click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^arogya-export-\d{4}-\d\d-\d\d\.zip$/)
  const zip = unzipSync(new Uint8Array(await readFile(await file.path())))
  const patients = Buffer.from(zip['patients.csv'] ?? new Uint8Array())
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
  expect(patients[0]).toMatch(/^id,name,email,phone,/)
  expect(patients.length).toBeGreaterThan(50)
  const manifest = JSON.parse(Buffer.from(zip['manifest.json'] ?? new Uint8Array()).toString()) as {
    files: { name: string; rows: number }[]
  }
  expect(manifest.files.find((f) => f.name === 'patients.csv')?.rows).toBe(patients.length - 1)
  await expectNoAxeViolations(page, 'Settings → Data with a finished export')
  await expectNoSidewaysScroll(page, 'a finished export at 360px')

  // Delete All Data: off until the exact name is typed; a wrong password is refused.
  await page.getByRole('button', { name: 'Delete All Data' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete all data?' })
  await expect(dialog).toBeVisible()
  await expectNoAxeViolations(page, 'the Delete All Data dialog')
  await expectNoSidewaysScroll(page, 'the Delete All Data dialog at 360px')
  const confirm = dialog.getByRole('button', { name: 'Delete all data' })
  await dialog.getByLabel(/Type the hospital’s name/).fill('Some other hospital')
  await dialog.getByLabel('Your password').fill('not-the-password')
  await expect(confirm).toBeDisabled()
  await dialog.getByLabel(/Type the hospital’s name/).fill(HOSPITAL)
  await confirm.click()
  await expect(dialog.getByText('The password is not correct')).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  // Nothing was deleted.
  await page.goto('/patients')
  await expect(page.getByRole('button', { name: /^View Details of / }).first()).toBeVisible()
})

test('a viewer is told the data actions are for the admin', async ({ page }) => {
  await login(page, 'viewer@sanjeevani.demo')
  await page.goto('/settings?tab=data')
  await expect(page.getByText(/are for your hospital’s admin/)).toBeVisible()
  // Every member sees the storage their uploads count toward.
  await expect(page.getByText(/^Storage: .+ of 50 GB used$/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Export Data' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Delete All Data' })).toHaveCount(0)
})
