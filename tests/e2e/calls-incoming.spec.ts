import type { Page } from '@playwright/test'
import {
  createPatientViaApi,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  randomMobile,
  test,
  uniqueName,
} from './fixtures'
import { verifyMyPhone } from './support/calls'

// Issue 41, incoming calls in the sandbox: on the Sandbox page a receptionist (in the ring group:
// a receptionist with a verified phone) simulates a call from an unknown number; it becomes a
// lead with source "Phone call", and her screen pops up "Incoming call … New lead", which turns
// into "Missed call" once the sandbox gives up ringing. A patient's call pops up with their name
// and patient number. At 360 px the pop-up fits, and axe finds nothing.

const RECEPTIONIST = 'receptionist@sanjeevani.demo'

const popup = (page: Page) => page.getByTestId('incoming-call')

async function simulate(page: Page, phone: string, outcome: 'Missed' | 'Answered') {
  await page.getByLabel('Caller’s number').fill(phone)
  await page.getByLabel('The call is').selectOption({ label: outcome })
  const posted = page.waitForResponse(
    (r) => r.url().endsWith('/api/calls/sandbox/incoming') && r.request().method() === 'POST',
  )
  await page.getByRole('button', { name: 'Simulate call' }).click()
  const response = await posted
  expect(response.status(), await response.text()).toBe(201)
  return (await response.json()) as { id: string; leadId: string | null; newLead: boolean }
}

test('an incoming sandbox call from an unknown number creates a lead and pops up', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 780 })
  await login(page, RECEPTIONIST)
  await verifyMyPhone(page)
  await page.goto('/messaging/sandbox')
  await expect(page.getByRole('heading', { name: 'Simulate an incoming call' })).toBeVisible()

  const phone = `${randomMobile().slice(0, -1)}7`
  const call = await simulate(page, phone, 'Missed')
  expect(call.newLead).toBe(true)
  const shown = popup(page)
  await expect(shown).toBeVisible()
  await expect(shown.getByRole('heading')).toHaveText(/Incoming call|Missed call/)
  await expect(shown).toContainText('New lead')
  await expect(page.getByRole('dialog', { name: /Incoming call|Missed call/ })).toBeVisible()
  await expectNoSidewaysScroll(page, 'the Sandbox page with the pop-up at 360 px')
  await expectNoAxeViolations(page, 'the incoming-call pop-up')

  // The sandbox gives up ringing: the pop-up says so.
  await expect(shown.getByRole('heading')).toHaveText(/^Missed call/, { timeout: 20_000 })

  // The lead exists once, with source "Phone call".
  const origin = new URL(page.url()).origin
  const lead = await page.request.get(`/api/leads/${call.leadId ?? ''}`, { headers: { origin } })
  expect(lead.status()).toBe(200)
  expect(await lead.json()).toMatchObject({ source: 'phone' })

  // Open lead goes to the lead, and the pop-up closes.
  await shown.getByRole('link', { name: 'Open lead' }).click()
  await expect(page).toHaveURL(new RegExp(`/leads\\?open=${call.leadId ?? ''}`))
  await expect(popup(page)).toHaveCount(0)
})

test('a patient’s call pops up with their name and patient number; Dismiss closes it', async ({
  page,
}) => {
  await login(page, RECEPTIONIST)
  await verifyMyPhone(page)
  await page.goto('/messaging/sandbox')
  const name = uniqueName('Sunita', 'Kulkarni')
  const patient = await createPatientViaApi(page, {
    name,
    phone: randomMobile(),
  })
  await simulate(page, patient.phone, 'Answered')
  const shown = popup(page)
  await expect(shown).toContainText(name)
  await expect(shown).toContainText(`Patient ${patient.patientNumber}`)
  await expectNoAxeViolations(page, 'the pop-up for a patient')
  await shown.getByRole('button', { name: new RegExp(`^Dismiss .* from ${name}$`) }).click()
  await expect(popup(page)).toHaveCount(0)
})
