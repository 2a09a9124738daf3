import { expect, expectNoAxeViolations, expectNoSidewaysScroll, login, test } from './fixtures'

// Issue 26's search regression: the front desk types the last 4 digits of a mobile.

const RECEPTIONIST = 'receptionist@sanjeevani.demo'

test('finds a seeded patient by the last 4 digits of the phone in /patients', async ({ page }) => {
  await login(page, RECEPTIONIST)
  const res = await page.request.get('/api/patients?limit=5&sort=name')
  expect(res.status(), await res.text()).toBe(200)
  const [patient] = (await res.json()) as { id: string; name: string; phone: string }[]
  if (!patient) throw new Error('no seeded patient')
  const lastFour = patient.phone.slice(-4)

  await page.goto('/patients')
  const search = page.getByPlaceholder('Search patients by name, email, or phone...')
  await search.fill(lastFour)
  const main = page.getByRole('main')
  await expect(main.getByText(patient.name, { exact: true }).first()).toBeVisible()
  // Typed the way people do: with a space inside the run.
  await search.fill(`${lastFour.slice(0, 2)} ${lastFour.slice(2)}`)
  await expect(main.getByText(patient.name, { exact: true }).first()).toBeVisible()
  await expectNoAxeViolations(page, '/patients searched by the last 4 digits')

  await page.setViewportSize({ width: 360, height: 740 })
  await expect(main.getByText(patient.name, { exact: true }).first()).toBeVisible()
  await expectNoSidewaysScroll(page, '/patients at 360 px')
})
