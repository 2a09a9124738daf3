import type { Page } from '@playwright/test'
import {
  createLeadViaApi,
  expect,
  login,
  randomMobile,
  skipLeadsTour,
  test,
  uniqueName,
} from './fixtures'

// Issue 40 items 1 and 2 on a fresh demo (sandbox): WhatsApp's templates are offered, approved
// by the sandbox, and Pending Reminders → Send Now sends.

const RECEPTIONIST = 'receptionist@sanjeevani.demo'

const rows = (page: Page) => page.getByTestId('lead-row')

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
})

test("a new lead's WhatsApp offers the spec's templates and sends Welcome", async ({ page }) => {
  await skipLeadsTour(page)
  await login(page, RECEPTIONIST)
  const name = uniqueName('Meera', 'Firstrun')
  await createLeadViaApi(page, { name, phone: randomMobile() })
  await page.goto('/leads')
  await page.getByRole('searchbox', { name: 'Search leads' }).fill(name)
  await expect(rows(page)).toHaveCount(1)
  await rows(page)
    .getByRole('button', { name: `WhatsApp ${name}` })
    .click()
  const dialog = page.getByRole('dialog', { name: `Send Message to ${name}` })
  const template = dialog.getByLabel('Template')
  // Custom needs a reply first; the spec's three are approved by the sandbox.
  await expect(template.getByRole('option', { name: /^Custom/ })).toHaveText(
    'Custom (needs a reply in the last 24 hours)',
  )
  for (const label of ['Welcome', 'Appointment reminder', 'Follow-up']) {
    await expect(template.getByRole('option', { name: label, exact: true })).toBeEnabled()
  }
  await expect(dialog.getByText(/every WhatsApp template counts as approved/)).toBeVisible()
  await template.selectOption({ label: 'Welcome' })
  await dialog.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('Message queued')).toBeVisible()
  await expect(dialog).toHaveCount(0)
})

test('Pending Reminders → Send Now sends the first reminder', async ({ page }) => {
  await login(page, RECEPTIONIST)
  await page.goto('/settings')
  await page.getByRole('tab', { name: 'Notifications' }).click()
  const send = page.getByRole('button', { name: /^Send Now: / }).first()
  await send.click()
  await expect(page.getByText('Reminder sent')).toBeVisible()
  await expect(page.getByText('Reminder not sent')).toHaveCount(0)
})
