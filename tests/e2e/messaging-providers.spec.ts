import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, login, test } from './fixtures'
import { E2E_SENDGRID_KEY, E2E_TWILIO, providerPorts } from './support/messaging-providers'

// Settings → Integrations against the run's local provider fakes (fake-messaging-server.ts):
// an admin connects Twilio for SMS and SendGrid for email in the form, and each Test button
// sends a real request that the provider's fake accepts after checking it against the
// provider's official contract. Smile Dental's channels go back to the sandbox afterwards.

const ADMIN = 'admin@smiledental.demo'
const twilioUrl = `http://127.0.0.1:${providerPorts(Number(process.env.E2E_PORT ?? 5178)).twilio}`

const origin = (page: Page) => ({ origin: new URL(page.url()).origin })

/** What Twilio's fake holds for the account, newest first (its ListMessage). */
async function twilioMessages(page: Page): Promise<{ to: string; body: string; from: string }[]> {
  const auth = Buffer.from(`${E2E_TWILIO.accountSid}:${E2E_TWILIO.authToken}`).toString('base64')
  const res = await page.request.get(
    `${twilioUrl}/2010-04-01/Accounts/${E2E_TWILIO.accountSid}/Messages.json`,
    { headers: { authorization: `Basic ${auth}` } },
  )
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { messages: { to: string; body: string; from: string }[] }).messages
}

test('the Test buttons reach Twilio and SendGrid once Settings connects them', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await login(page, ADMIN)
  await page.goto('/settings?tab=integrations')
  const headers = origin(page)
  try {
    const sms = page.getByRole('group', { name: 'SMS' })
    await sms.getByLabel('SMS provider').selectOption('twilio')
    await sms.getByLabel('Account SID').fill(E2E_TWILIO.accountSid)
    await sms.getByLabel('Auth token').fill(E2E_TWILIO.authToken)
    await sms.getByLabel('From number').fill(E2E_TWILIO.from)
    const email = page.getByRole('group', { name: 'Email' })
    await email.getByLabel('Email provider').selectOption('sendgrid')
    await email.getByLabel('SendGrid API key').fill(E2E_SENDGRID_KEY)
    await email.getByLabel('From email').fill('appointments@smiledental.example.in')
    await page.getByRole('button', { name: 'Save messaging settings' }).click()
    // Saved secrets come back only as set, with their last 4 characters.
    await expect(sms.getByText(E2E_TWILIO.authToken.slice(-4))).toBeVisible()

    const to = '+919845012345'
    await page.getByLabel('Test SMS number').fill(to)
    await page.getByRole('button', { name: 'Test SMS' }).click()
    await expect(page.getByRole('status', { name: 'Test SMS result' })).toContainText(
      /^Accepted by twilio/i,
    )
    const reached = await twilioMessages(page)
    expect(reached.find((m) => m.to === to)).toMatchObject({ from: E2E_TWILIO.from })

    await page.getByLabel('Test email address').fill('front.desk@smiledental.example.in')
    await page.getByRole('button', { name: 'Test Email' }).click()
    await expect(page.getByRole('status', { name: 'Test Email result' })).toContainText(
      /^Accepted by sendgrid/i,
    )
    await expectNoAxeViolations(page, 'Settings → Integrations with providers connected')
  } finally {
    const reset = await page.request.put('/api/settings/messaging', {
      headers,
      data: {
        sms: { provider: 'sandbox', settings: {}, secrets: {} },
        email: { provider: 'sandbox', settings: {}, secrets: {} },
      },
    })
    expect(reset.status(), await reset.text()).toBe(200)
  }
})
