import type { Locator, Page } from '@playwright/test'
import { twilioSignature } from '../../src/server/integrations/messaging/signatures'
import {
  createLeadViaApi,
  createPatientViaApi,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  randomMobile,
  skipLeadsTour,
  test,
  uniqueName,
} from './fixtures'

const SHOTS = 'test-results/e2e/screenshots'
const RECEPTIONIST = 'receptionist@sanjeevani.demo'
const ADMIN = 'admin@sanjeevani.demo'
const VIEWER = 'viewer@sanjeevani.demo'
// Smile Dental's SMS goes through a Twilio account for the inbound test (nothing is sent).
const SMILE_ADMIN = 'admin@smiledental.demo'
const LAPTOP = { width: 1280, height: 800 }
const PHONE = { width: 360, height: 740 }
/** The sandbox marks a message delivered after SANDBOX_DELIVERY_MS; screens poll at worst every 10 s. */
const LIVE = { timeout: 30_000 }

const rows = (page: Page) => page.getByTestId('lead-row')

async function findLead(page: Page, text: string, count = 1) {
  await page.getByRole('searchbox', { name: 'Search leads' }).fill(text)
  await expect(rows(page)).toHaveCount(count)
}

const origin = (page: Page) => ({ origin: new URL(page.url()).origin })

/** The history entry whose text contains `text`. */
const entry = (history: Locator, text: string) =>
  history.getByTestId('communication').filter({ hasText: text })

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(LAPTOP)
})

test('the message dialog sends an SMS (Hindi, in parts), a WhatsApp template and an email; each is delivered live', async ({
  page,
}) => {
  await skipLeadsTour(page)
  await login(page, ADMIN)
  const name = uniqueName('Asha', 'Message')
  // A WhatsApp template that names the provider's approved template may open a conversation
  // (the sandbox approves it on Resync).
  const waTemplate = `Welcome ${name.split(' ')[1]}`
  const made = await page.request.post('/api/message-templates', {
    headers: origin(page),
    data: {
      channel: 'whatsapp',
      name: waTemplate,
      body: 'Namaste {name}, welcome to {clinic}.',
      category: 'utility',
      providerTemplateName: 'clinic_welcome',
    },
  })
  expect(made.status(), await made.text()).toBe(201)
  const resync = await page.request.post('/api/message-templates/resync', { headers: origin(page) })
  expect(resync.status(), await resync.text()).toBe(200)
  const lead = await createLeadViaApi(page, {
    name,
    phone: randomMobile(),
    email: 'asha.message@example.in',
  })
  await page.goto('/leads')
  await findLead(page, name)

  // SMS: the spec's counter, then Hindi switches to UCS-2 with 70 characters a part.
  await rows(page)
    .getByRole('button', { name: `SMS ${name}` })
    .click()
  const dialog = page.getByRole('dialog', { name: `Send Message to ${name}` })
  await expect(dialog.getByLabel('Type')).toHaveValue('sms')
  await expect(page).toHaveTitle(`Message ${name} · Arogya CRM`)
  await expect(dialog.getByRole('link', { name: 'Sandbox' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('Please enter a message.')).toBeVisible()
  const message = dialog.getByLabel('Message')
  await message.fill('Your report is ready.')
  await expect(dialog.getByTestId('sms-count')).toHaveText('21/160')
  await expect(dialog.getByTestId('sms-parts')).toHaveText('1 part · GSM-7')
  const hindi = 'नमस्ते, आपकी रिपोर्ट तैयार है। कृपया कल सुबह दस बजे क्लिनिक आएँ। शुल्क ₹500 है, धन्यवाद।'
  await message.fill(hindi)
  await expect(dialog.getByTestId('sms-count')).toHaveText(`${hindi.length}/70`)
  await expect(dialog.getByTestId('sms-parts')).toHaveText(
    /^2 parts · Unicode \(UCS-2\): 70 characters a message, 67 a part$/,
  )
  await expectNoAxeViolations(page, 'the message dialog')
  await page.screenshot({ path: `${SHOTS}/message-dialog-sms.png` })
  await dialog.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('Message queued')).toBeVisible()
  await expect(dialog).toHaveCount(0)

  // WhatsApp: nobody wrote in the last 24 hours, so only an approved template may go.
  await rows(page)
    .getByRole('button', { name: `WhatsApp ${name}` })
    .click()
  await expect(
    dialog.getByText(/No WhatsApp message from this contact in the last 24 hours/),
  ).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Send Message' })).toBeDisabled()
  await dialog.getByLabel('Template').selectOption({ label: waTemplate })
  await expect(message).toHaveValue(
    `Namaste ${name}, welcome to Sanjeevani Multispeciality Hospital, Pune.`,
  )
  await dialog.getByRole('button', { name: 'Send Message' }).click()
  await expect(dialog).toHaveCount(0)

  // Email: a template fills the subject and the text with the name; Custom clears both.
  await rows(page)
    .getByRole('button', { name: `Email ${name}` })
    .click()
  const subject = dialog.getByLabel('Subject')
  await dialog.getByLabel('Template').selectOption({ index: 1 })
  await expect(message).toHaveValue(new RegExp(name))
  await expect(subject).not.toHaveValue('')
  await dialog.getByLabel('Template').selectOption({ label: 'Custom' })
  await expect(message).toHaveValue('')
  await expect(subject).toHaveValue('')
  await subject.fill(`Welcome, ${name}`)
  await message.fill(`Dear ${name}, thank you for your enquiry.`)
  await dialog.getByRole('button', { name: 'Send Message' }).click()
  await expect(dialog).toHaveCount(0)

  // The history shows each one, and each turns Delivered without a reload.
  await rows(page)
    .getByRole('button', { name: `More about ${name}` })
    .click()
  const details = page.getByRole('dialog', { name: `Lead Details: ${name}` })
  for (const text of [hindi, `Dear ${name}`]) {
    const item = entry(details, text)
    await expect(item).toHaveCount(1)
    await expect(item.getByTestId('message-status')).toHaveText('Delivered', LIVE)
    await expect(item.getByRole('link', { name: 'Sandbox' })).toBeVisible()
  }
  const whatsapp = details.getByTestId('communication').filter({ hasText: 'WhatsApp' })
  await expect(whatsapp.getByTestId('message-status')).toHaveText('Delivered', LIVE)
  await expect(entry(details, `Dear ${name}`)).toContainText(`Welcome, ${name}`)
  const sent = (await (await page.request.get(`/api/leads/${lead.id}/communications`)).json()) as {
    status: string
    sandbox: boolean
  }[]
  expect(sent.map((c) => [c.status, c.sandbox])).toEqual([
    ['delivered', true],
    ['delivered', true],
    ['delivered', true],
  ])
})

test('a patient is messaged from the card and the details show it', async ({ page }) => {
  await login(page, RECEPTIONIST)
  const name = uniqueName('Ravi', 'Patient')
  await page.goto('/patients')
  await createPatientViaApi(page, { name, phone: randomMobile() })
  await page.getByPlaceholder('Search patients by name, email, or phone...').fill(name)
  await expect(page.getByTestId('patient-card')).toHaveCount(1)
  const card = page.getByTestId('patient-card').filter({ hasText: name })
  await card.getByRole('button', { name: `Send Message to ${name}` }).click()
  const dialog = page.getByRole('dialog', { name: `Send Message to ${name}` })
  await dialog.getByLabel('Type').selectOption('sms')
  await dialog.getByLabel('Message').fill('Your appointment is tomorrow at 10 am.')
  await dialog.getByRole('button', { name: 'Send Message' }).click()
  await expect(dialog).toHaveCount(0)
  await card.getByRole('button', { name: `View Details of ${name}` }).click()
  const details = page.getByRole('dialog', { name: `Patient Details: ${name}` })
  const item = entry(details, 'Your appointment is tomorrow')
  await expect(item.getByTestId('message-status')).toHaveText('Delivered', LIVE)
  // Checked once the 'Message queued' toast has gone (axe would measure it mid-fade).
  await expect(page.getByText('Message queued')).toHaveCount(0)
  await expectNoAxeViolations(page, 'the patient details with their history')
})

test('bulk send: the preview counts who is skipped and why, a bar fills, a summary ends it', async ({
  page,
}) => {
  await skipLeadsTour(page)
  await login(page, RECEPTIONIST)
  const surname = uniqueName('Bulk', 'Msg').split(' ')[1]!
  await createLeadViaApi(page, {
    name: `${surname} Anil`,
    phone: randomMobile(),
    email: 'anil.bulk@example.in',
  })
  const out = await createLeadViaApi(page, {
    name: `${surname} Bina`,
    phone: randomMobile(),
    email: 'bina.bulk@example.in',
  })
  await createLeadViaApi(page, { name: `${surname} Chetan`, phone: randomMobile() })
  const optOut = await page.request.post('/api/consents', {
    data: { leadId: out.id, channel: 'email', action: 'opt_out' },
    headers: origin(page),
  })
  expect(optOut.status(), await optOut.text()).toBe(201)

  await page.goto('/leads')
  await findLead(page, surname, 3)
  await page.getByRole('button', { name: 'Select leads' }).click()
  await page.getByRole('checkbox', { name: 'Select all leads' }).check()
  const bar = page.getByRole('region', { name: 'Bulk actions' })
  await bar.getByRole('button', { name: 'Send Message' }).click()
  const dialog = page.getByRole('dialog', { name: 'Bulk Message' })
  await expect(page).toHaveTitle('Bulk Message · Arogya CRM')
  await dialog.getByLabel('Channel').selectOption('email')
  await dialog.getByLabel('Template').selectOption({ index: 1 })
  await dialog.getByRole('button', { name: 'Preview' }).click()
  const preview = dialog.getByRole('status', { name: 'Bulk send preview' })
  await expect(preview).toContainText('1 of 3 leads will receive it')
  await expect(preview).toContainText('Skipped, no email address: 1')
  await expect(preview).toContainText('Skipped, opted out: 1')
  await expectNoAxeViolations(page, 'the bulk message dialog')
  await page.screenshot({ path: `${SHOTS}/bulk-message-preview.png` })

  await dialog.getByRole('button', { name: 'Send to 1' }).click()
  const progress = dialog.getByRole('progressbar', { name: 'Bulk send progress' })
  await expect(progress).toBeVisible()
  await expect(progress).toHaveAttribute('aria-valuenow', '100', LIVE)
  const summary = dialog.getByRole('status', { name: 'Bulk send summary' })
  await expect(dialog.getByText('Finished.')).toBeVisible()
  await expect(summary.getByText('Failed', { exact: true })).toBeVisible()
  await expect(summary).toContainText('2 skipped.')
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(dialog).toHaveCount(0)
})

test('an inbound SMS reply appears in the history and on the bell', async ({ page }) => {
  await skipLeadsTour(page)
  await login(page, SMILE_ADMIN)
  const headers = origin(page)
  const authToken = 'e2e-twilio-auth-token-0001'
  const saved = await page.request.put('/api/settings/messaging', {
    headers,
    data: {
      sms: {
        provider: 'twilio',
        settings: { accountSid: `AC${'0'.repeat(32)}`, from: '+15005550006' },
        secrets: { authToken },
      },
    },
  })
  expect(saved.status(), await saved.text()).toBe(200)
  try {
    const user = (await (await page.request.get('/api/auth/user')).json()) as {
      hospitalId: string
    }
    const name = uniqueName('Reply', 'Inbound')
    const lead = await createLeadViaApi(page, { name, phone: randomMobile() })
    await page.goto('/leads')
    const unread = async () =>
      ((await (await page.request.get('/api/messaging/unread')).json()) as { count: number }).count
    const before = await unread()

    const path = `/api/webhooks/twilio/${user.hospitalId}/inbound`
    const params = {
      AccountSid: `AC${'0'.repeat(32)}`,
      MessageSid: `SM${Date.now().toString(16).padStart(32, '0')}`,
      From: lead.phone,
      To: '+15005550006',
      Body: 'Yes, I will come tomorrow',
      NumMedia: '0',
    }
    const reply = await page.request.post(path, {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(`${headers.origin}${path}`, params, authToken),
      },
      data: new URLSearchParams(params).toString(),
    })
    expect(reply.status(), await reply.text()).toBe(200)

    expect(await unread()).toBe(before + 1)
    // The bell's menu says it without a reload (server-sent 'unread', or the polling fallback).
    await page.getByRole('button', { name: /^Notifications: / }).click()
    await expect(page.getByRole('menu')).toContainText(
      `${before + 1} unread ${before + 1 === 1 ? 'message' : 'messages'}`,
      LIVE,
    )
    await page.keyboard.press('Escape')
    await findLead(page, name)
    await rows(page)
      .getByRole('button', { name: `More about ${name}` })
      .click()
    const details = page.getByRole('dialog', { name: `Lead Details: ${name}` })
    const item = entry(details, 'Yes, I will come tomorrow')
    await expect(item).toContainText('Inbound')
    await expect(item.getByTestId('message-status')).toHaveText('Received')
  } finally {
    await page.request.put('/api/settings/messaging', {
      headers,
      data: { sms: { provider: 'sandbox', settings: {}, secrets: {} } },
    })
  }
})

test('Settings: messaging providers, test sends, templates, notifications and the sandbox outbox', async ({
  page,
}) => {
  await login(page, ADMIN)
  await page.goto('/settings?tab=integrations')
  await expect(
    page.getByRole('heading', { name: 'Messaging: WhatsApp, SMS and email' }),
  ).toBeVisible()
  for (const channel of ['WhatsApp', 'SMS', 'Email'])
    await expect(page.getByLabel(`${channel} provider`)).toBeVisible()
  await expect(page.getByText('Twilio status callback')).toBeVisible()

  // SMTP presets fill host and port.
  await page.getByLabel('Email provider').selectOption('smtp')
  await page.getByLabel('SMTP preset').selectOption({ label: 'Mailgun' })
  await expect(page.getByLabel('SMTP host')).toHaveValue('smtp.mailgun.org')
  await expect(page.getByLabel('SMTP port')).toHaveValue('587')
  await page.reload()

  for (const [channel, to] of [
    ['WhatsApp', '+919876500011'],
    ['SMS', '+919876500012'],
    ['Email', 'front.desk@example.in'],
  ] as const) {
    await page
      .getByLabel(channel === 'Email' ? 'Test email address' : `Test ${channel} number`)
      .fill(to)
    await page.getByRole('button', { name: `Test ${channel}` }).click()
    await expect(page.getByRole('status', { name: `Test ${channel} result` })).toContainText(
      /^Sandbox: the message was not sent/,
    )
    await expect(page.getByRole('status', { name: `Test ${channel} result` })).not.toContainText(
      'Accepted by',
    )
  }
  await expectNoAxeViolations(page, 'Settings → Integrations')

  // Templates: the spec's three per channel, with approval badges; an admin adds one.
  await page.getByRole('tab', { name: 'Templates' }).click()
  await expect(page).toHaveURL(/\?tab=templates$/)
  await page.getByRole('button', { name: 'Resync' }).click()
  await expect(page.getByText('Template statuses updated')).toBeVisible()
  await page.getByLabel('Channel').selectOption('sms')
  const templates = page.getByTestId('template')
  // The spec's welcome, appointment-reminder and follow-up at least.
  await expect(templates.nth(2)).toBeVisible()
  const added = uniqueName('Camp', 'Notice')
  await page.getByRole('button', { name: 'Add template' }).click()
  const form = page.getByRole('dialog', { name: 'New template' })
  await form.getByLabel('Name').fill(added)
  await form.getByLabel('Text').fill('Dear {#var#}, free eye camp on Sunday. -Sanjeevani')
  await form.getByLabel('Category').selectOption('service_explicit')
  await form.getByLabel('DLT template ID').fill('1107160000000012345')
  await expectNoAxeViolations(page, 'the template dialog')
  await form.getByRole('button', { name: 'Save template' }).click()
  await expect(form).toHaveCount(0)
  await expect(templates.filter({ hasText: added })).toContainText('1107160000000012345')
  await expectNoAxeViolations(page, 'Settings → Templates')

  // Notifications: the spec's defaults and the Pending Reminders card.
  await page.getByRole('tab', { name: 'Notifications' }).click()
  await expect(page.getByRole('switch', { name: /Email notifications/ })).toBeChecked()
  await expect(page.getByRole('switch', { name: /SMS notifications/ })).not.toBeChecked()
  await expect(page.getByRole('switch', { name: /Appointment reminders/ })).toBeChecked()
  await expect(
    page.getByText(/^(\d+ reminders? waiting to be sent|No pending reminders)$/).first(),
  ).toBeVisible()
  await expectNoAxeViolations(page, 'Settings → Notifications')
  await page.setViewportSize(PHONE)
  await expectNoSidewaysScroll(page, 'Settings → Notifications at 360 px')
  await page.setViewportSize(LAPTOP)

  // The outbox shows what the sandbox "sent", clearly labelled.
  const lead = await createLeadViaApi(page, {
    name: uniqueName('Outbox', 'Lead'),
    phone: randomMobile(),
  })
  const text = `Outbox check ${lead.id.slice(0, 8)}`
  const queued = await page.request.post('/api/communications', {
    headers: origin(page),
    data: { leadId: lead.id, type: 'sms', direction: 'outbound', status: 'sent', content: text },
  })
  expect(queued.status(), await queued.text()).toBe(201)
  await page.goto('/messaging/sandbox')
  await expect(page).toHaveTitle('Sandbox Outbox · Arogya CRM')
  await expect(page.getByText('Sandbox: these messages were not sent to anyone.')).toBeVisible()
  const outbox = page.getByTestId('sandbox-message')
  // The number as people write it: +91 98765 43210.
  const digits = lead.phone.replace(/\D/g, '').slice(-10)
  await expect(outbox.filter({ hasText: text })).toContainText(
    `+91 ${digits.slice(0, 5)} ${digits.slice(5)}`,
  )
  await expectNoAxeViolations(page, 'the Sandbox Outbox')
  await page.setViewportSize(PHONE)
  await expectNoSidewaysScroll(page, 'the Sandbox Outbox at 360 px')
  await page.screenshot({ path: `${SHOTS}/sandbox-outbox-360.png` })
})

test('a viewer is offered no way to send', async ({ page }) => {
  await skipLeadsTour(page)
  await login(page, VIEWER)
  await page.goto('/leads')
  const row = rows(page).first()
  await expect(row).toBeVisible()
  await expect(row.getByRole('button', { name: /^(WhatsApp|SMS) / })).toHaveCount(0)
  await expect(row.getByRole('link', { name: /^WhatsApp / })).toBeVisible()
  await page.goto('/patients')
  await expect(page.getByTestId('patient-card').first()).toBeVisible()
  await expect(page.getByRole('button', { name: /^Send Message to / })).toHaveCount(0)
  await page.goto('/settings?tab=integrations')
  await expect(
    page.getByText("Only your hospital's admin can change its integrations."),
  ).toBeVisible()
})
