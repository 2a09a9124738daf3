import { readFile } from 'node:fs/promises'
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

// Issue 27, patients' data rights (DPDP Act 2023), on a 360 px phone: an admin downloads a
// patient's record (JSON and CSV) and erases the patient after typing their name.

const PHONE = { width: 360, height: 740 }

test('an admin exports a patient’s record and erases the patient', async ({ page }) => {
  await page.setViewportSize(PHONE)
  await login(page)
  const name = uniqueName('Rekha', 'Pillai')
  const created = await createPatientViaApi(page, {
    name,
    phone: randomMobile(),
    email: 'rekha.pillai@example.in',
    allergies: 'Sulpha drugs',
  })

  const consent = await page.request.post('/api/consents', {
    data: { patientId: created.id, channel: 'whatsapp', action: 'opt_in' },
    headers: { origin: new URL(page.url()).origin },
  })
  expect(consent.status(), await consent.text()).toBe(201)

  await page.goto('/patients')
  await page
    .getByPlaceholder('Search patients by name, email, or phone...')
    .fill(created.patientNumber)
  await page.getByRole('button', { name: `View Details of ${name}` }).click()
  const details = page.getByRole('dialog', { name: `Patient Details: ${name}` })
  await expect(details.getByRole('heading', { name: 'Data rights' })).toBeVisible()
  // The WhatsApp opt-in is listed; Withdraw records an opt-out and keeps the opt-in.
  const consents = details.getByRole('list').filter({ hasText: 'WhatsApp' })
  await expect(consents.getByText('Opted in')).toBeVisible()
  await consents.getByRole('button', { name: 'Withdraw WhatsApp consent' }).click()
  await expect(page.getByText('WhatsApp consent withdrawn')).toBeVisible()
  await expect(consents.getByText('Withdrawn', { exact: true })).toBeVisible()
  await expect(consents.getByText('(superseded)')).toBeVisible()
  await expect(consents.getByRole('button', { name: /^Withdraw/ })).toHaveCount(0)

  // Both downloads arrive, with this patient's record.
  const json = page.waitForEvent('download')
  await details.getByRole('link', { name: 'Export record (JSON)' }).click()
  const jsonFile = await json
  expect(jsonFile.suggestedFilename()).toBe(`patient-${created.patientNumber}.json`)
  const record = JSON.parse(await readFile(await jsonFile.path(), 'utf8')) as {
    patient: { name: string; allergies: string }
  }
  expect(record.patient).toMatchObject({ name, allergies: 'Sulpha drugs' })
  const csv = page.waitForEvent('download')
  await details.getByRole('link', { name: 'Export record (CSV)' }).click()
  const csvText = await readFile(await (await csv).path(), 'utf8')
  expect(csvText.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Section,Record,Field,Value')
  expect(csvText).toContain(`patient,1,name,${name}`)

  await expectNoSidewaysScroll(page, 'the patient details at 360px')
  await expectNoAxeViolations(page, 'the patient details with Data rights')

  // Erase: the button stays off until the name is typed.
  await details.getByRole('button', { name: 'Erase patient' }).click()
  const erase = page.getByRole('dialog', { name: `Erase ${name}?` })
  await expect(erase).toBeVisible()
  await expectNoAxeViolations(page, 'the Erase patient dialog')
  await expectNoSidewaysScroll(page, 'the Erase patient dialog at 360px')
  const confirm = erase.getByRole('button', { name: 'Erase patient' })
  await erase.getByLabel(/Type the patient’s name/).fill('Someone else')
  await expect(confirm).toBeDisabled()
  await erase.getByLabel(/Type the patient’s name/).fill(name)
  await confirm.click()
  await expect(page.getByText('Patient erased', { exact: true })).toBeVisible()
  await expect(erase).toHaveCount(0)
  const after = page.getByRole('dialog', { name: 'Patient Details: Erased patient' })
  await expect(after.getByText(/^Erased on /)).toBeVisible()
  await expect(after.getByText('Sulpha drugs')).toHaveCount(0)
  await expect(after.getByRole('button', { name: 'Erase patient' })).toHaveCount(0)
})
