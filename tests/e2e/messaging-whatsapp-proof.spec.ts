import { expect, expectNoAxeViolations, login, test } from './fixtures'

// Issue 39: Settings → Integrations proves WhatsApp IDs with Meta before saving them, and shows
// Meta's refusal on the field to fix (nothing is saved); choosing MSG91 for SMS says that STOP
// replies are not seen and that staff record opt-outs in the contact's consent.

const ADMIN = 'admin@smiledental.demo'

test("shows Meta's refusal of the WhatsApp IDs on the field, and the MSG91 opt-out note", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await login(page, ADMIN)
  await page.goto('/settings?tab=integrations')

  const sms = page.getByRole('group', { name: 'SMS' })
  await sms.getByLabel('SMS provider').selectOption('msg91')
  await expect(sms.getByText(/does not pass on replies/)).toBeVisible()
  await expect(sms.getByText(/withdraw their SMS consent/)).toBeVisible()
  await sms.getByLabel('SMS provider').selectOption('sandbox')

  const whatsapp = page.getByRole('group', { name: 'WhatsApp' })
  await whatsapp.getByLabel('WhatsApp provider').selectOption('meta')
  await whatsapp.getByLabel('Phone number ID').fill('106540359900001')
  await whatsapp.getByLabel('WhatsApp Business Account ID').fill('419561259900001')
  await whatsapp.getByLabel('Access token').fill('EAAG-e2e-a-token-meta-refuses')
  await whatsapp.getByLabel('Meta app secret').fill('e2e-whatsapp-app-secret')
  await page.getByRole('button', { name: 'Save messaging settings' }).click()

  const refusal = whatsapp.getByRole('alert')
  await expect(refusal).toContainText(/Meta/)
  await expectNoAxeViolations(page, 'Settings → Integrations with a refused WhatsApp ID')

  // Nothing was saved: after a reload WhatsApp is still on the sandbox.
  await page.reload()
  await expect(
    page.getByRole('group', { name: 'WhatsApp' }).getByLabel('WhatsApp provider'),
  ).toHaveValue('sandbox')
})
