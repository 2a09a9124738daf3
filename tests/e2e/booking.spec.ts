import type { Browser, Page } from '@playwright/test'
import {
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  randomMobile,
  test,
  uniqueName,
} from './fixtures'

/**
 * The public booking page (issue 26, "Patients book themselves"): a visitor on a phone books
 * with the code from the Sandbox Outbox, and the booking shows on the staff side as online.
 */
const PHONE = { width: 390, height: 844 }
const HOSPITAL = 'Sanjeevani Multispeciality Hospital, Pune'
const SLUG = 'sanjeevani-multispeciality-hospital-pune'
const ADMIN = 'admin@sanjeevani.demo'

async function visitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })
  return context.newPage()
}

test('a visitor books on a phone with the code from the Sandbox Outbox; staff see it as online', async ({
  browser,
  page: staff,
}) => {
  const page = await visitor(browser)
  const response = await page.goto(`/book/${SLUG}`)
  expect(response?.status()).toBe(200)
  await expect(page).toHaveTitle(`Book an appointment · ${HOSPITAL}`)
  await expect(page.getByRole('heading', { name: HOSPITAL })).toBeVisible()

  await page.getByRole('radio', { name: /OPD consultation/ }).check()
  await page.getByLabel('Doctor').selectOption({ label: 'Any doctor' })
  // Tomorrow or later (today's times may have passed): the second open day.
  const days = page.getByRole('group', { name: 'Day' }).getByRole('button', { disabled: false })
  await days.nth(1).click()
  const firstSlot = page.getByRole('list').getByRole('button').first()
  await expect(firstSlot).toBeVisible()
  await expectNoAxeViolations(page, 'the booking page (choose)')
  await expectNoSidewaysScroll(page, 'the booking page at 390 px')
  const time = (await firstSlot.textContent())?.trim() ?? ''
  await firstSlot.click()

  const name = uniqueName('Ritika', 'Online')
  const mobile = randomMobile()
  await page.getByLabel('Full name').fill(name)
  await page.getByLabel('Mobile number').fill('12345')
  await page.getByRole('radio', { name: 'SMS' }).check()
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect(page.getByText('Enter a valid Indian mobile number, e.g. 98765 43210')).toBeVisible()
  await page.getByLabel('Mobile number').fill(`${mobile.slice(0, 5)} ${mobile.slice(5)}`)
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect(page.getByRole('heading', { name: '5. Enter your code' })).toBeVisible()
  await expect(page.getByText(/This time is held for you for [45]:\d\d/)).toBeVisible()
  await expectNoAxeViolations(page, 'the booking page (code)')

  // The hospital's admin reads the code in the Sandbox Outbox.
  await login(staff, ADMIN)
  await staff.goto('/messaging/sandbox')
  // The outbox writes the number as people do: +91 98765 43210.
  const to = `to +91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`
  const message = staff.getByTestId('sandbox-message').filter({ hasText: to })
  await expect(message).toContainText(`is your code to confirm your appointment at ${HOSPITAL}`)
  await expect(message).toContainText('It expires in 5 minutes')
  const code = ((await message.textContent()) ?? '').match(/(\d{6}) is your code/)?.[1]
  expect(code).toBeTruthy()

  await page.getByLabel('Code').fill(code ?? '')
  await page.getByRole('button', { name: 'Confirm booking' }).click()
  await expect(page.getByRole('heading', { name: 'Your appointment is booked' })).toBeVisible()
  await expect(page.getByRole('definition').filter({ hasText: time })).toContainText(
    '(India Standard Time)',
  )
  await expectNoAxeViolations(page, 'the booking page (booked)')
  await expectNoSidewaysScroll(page, 'the confirmation at 390 px')

  // Staff side: the appointment, scheduled and marked online.
  const found = await staff.request.get(`/api/patients?search=${encodeURIComponent(name)}`)
  const [patient] = (await found.json()) as { id: string; phone: string }[]
  expect(patient?.phone).toBe(`+91${mobile}`)
  const list = await staff.request.get(`/api/appointments?patientId=${patient?.id ?? ''}`)
  expect(list.status(), await list.text()).toBe(200)
  const [booked] = (await list.json()) as { source: string; status: string; serviceType: string }[]
  expect(booked).toMatchObject({
    source: 'online',
    status: 'scheduled',
    serviceType: 'OPD consultation',
  })
  await page.context().close()
})

test('a page that is off or unknown shows its 404 state', async ({ browser }) => {
  const page = await visitor(browser)
  const response = await page.goto('/book/no-such-clinic')
  expect(response?.status()).toBe(404)
  await expect(
    page.getByRole('heading', { name: 'This booking page is not available' }),
  ).toBeVisible()
  await expectNoAxeViolations(page, 'the booking page (not available)')
  await page.context().close()
})
