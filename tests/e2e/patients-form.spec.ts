import type { Page } from '@playwright/test'
import {
  axe,
  createPatientViaApi,
  expect,
  expectNoSidewaysScroll,
  login,
  randomMobile,
  test,
  uniqueName,
} from './fixtures'

const SHOTS = 'test-results/e2e/screenshots'
const RECEPTIONIST = 'receptionist@sanjeevani.demo'
// Fresh names on every run and retry: the e2e database outlives a failed attempt.
const MEERA = uniqueName('Meera', 'Datecheck')
const KAVYA = uniqueName('Kavya', 'Agecheck')
const SURESH = uniqueName('Suresh', 'Familyphone')
const ANAYA = uniqueName('Anaya', 'Familyphone')
const ROHAN = uniqueName('Rohan', 'Discardcheck')
const TARA = uniqueName('Tara', 'Familyphone')

/** Opens a patient's card on /patients (found by a search) and returns it. */
async function findCard(page: Page, text: string) {
  await page.goto('/patients')
  await page.getByPlaceholder('Search patients by name, email, or phone...').fill(text)
  const card = page.getByTestId('patient-card').filter({ hasText: text })
  await expect(card).toHaveCount(1)
  return card
}

test('dates are typed dd/mm/yyyy, an age can stand in for an unknown date of birth', async ({
  page,
}) => {
  await login(page, RECEPTIONIST)
  await page.goto('/manual-patient')
  const dob = page.getByLabel('Date of Birth')
  await expect(dob).toHaveAttribute('placeholder', 'dd/mm/yyyy')
  await expect(dob).toHaveAttribute('inputmode', 'numeric')

  // Not a real date: said so when leaving the field.
  await dob.pressSequentially('31021990')
  await expect(dob).toHaveValue('31/02/1990')
  await dob.blur()
  await expect(page.getByText('No such date: 31/02/1990. Check the day and month.')).toBeVisible()
  await dob.fill('')

  // Slashes go in while typing; the date is saved as 15 April 1990.
  await page.getByLabel('Full Name').fill(MEERA)
  await page.getByLabel('Phone').fill(randomMobile())
  await dob.pressSequentially('15041990')
  await expect(dob).toHaveValue('15/04/1990')
  await expect(page.getByText('No such date')).toHaveCount(0)
  await page.getByRole('button', { name: 'Add Patient to System' }).click()
  await expect(page.getByText('Patient Added Successfully!')).toBeVisible()

  let card = await findCard(page, MEERA)
  await card.getByRole('button', { name: /View Details/ }).click()
  let details = page.getByRole('dialog', { name: `Patient Details: ${MEERA}` })
  await expect(details.getByText('Apr 15, 1990')).toBeVisible()
  await page.keyboard.press('Escape')
  await card.getByRole('button', { name: /^Edit/ }).click()
  await expect(page.getByRole('dialog').getByLabel('Date of Birth')).toHaveValue('15/04/1990')
  await page.keyboard.press('Escape')

  // Age instead of a date of birth.
  await page.goto('/manual-patient')
  await page.getByLabel('Full Name').fill(KAVYA)
  await page.getByLabel('Phone').fill(randomMobile())
  await page.getByRole('button', { name: "Don't know the date of birth? Enter age" }).click()
  const age = page.getByLabel('Age (years)')
  await expect(age).toBeFocused()
  await age.fill('200')
  await page.getByRole('button', { name: 'Add Patient to System' }).click()
  await expect(page.getByText('Age must be a whole number of years from 0 to 130')).toBeVisible()
  await age.fill('34')
  await page.getByRole('button', { name: 'Add Patient to System' }).click()
  await expect(page.getByLabel('Full Name')).toHaveValue('') // saved, and the form cleared

  card = await findCard(page, KAVYA)
  await expect(card.getByText('34 years (estimated)')).toBeVisible()
  await card.getByRole('button', { name: /View Details/ }).click()
  details = page.getByRole('dialog', { name: `Patient Details: ${KAVYA}` })
  await expect(details.getByText('34 years (estimated)')).toBeVisible()
  await page.keyboard.press('Escape')
  // Editing keeps the estimate as an age; nothing changed means nothing to discard.
  await card.getByRole('button', { name: /^Edit/ }).click()
  const edit = page.getByRole('dialog', { name: `Edit Patient: ${KAVYA}` })
  await expect(edit.getByLabel('Age (years)')).toHaveValue('34')
  await page.keyboard.press('Escape')
  await expect(edit).toBeHidden()
})

test('a phone already on file is pointed out with links, and saving still works', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await login(page, RECEPTIONIST)
  const phone = randomMobile()
  const parent = await createPatientViaApi(page, { name: SURESH, phone })

  await page.goto('/manual-patient')
  await page.getByLabel('Full Name').fill(ANAYA)
  // Typed the way people say it: with a 0 and a space.
  await page.getByLabel('Phone').fill(`0${phone.slice(0, 5)} ${phone.slice(5)}`)
  await expect(page.getByText('This number belongs to 1 patient')).toBeVisible()
  await expect(page.getByText(parent.patientNumber)).toBeVisible()
  await page.setViewportSize({ width: 360, height: 740 })
  // Narrowed to a phone, the sidebar closes by itself rather than covering the form.
  await expect(page.getByRole('button', { name: 'Open Menu' })).toBeVisible()
  await expectNoSidewaysScroll(page, 'Manual Entry with the warning at 360px')
  await page.screenshot({ path: `${SHOTS}/manual-entry-duplicate-360.png`, fullPage: true })
  await page.setViewportSize({ width: 1280, height: 800 })
  const link = page.getByRole('link', { name: SURESH })
  await expect(link).toHaveAttribute('href', `/patients?open=${parent.id}`)
  // The record opens over the form, which keeps what was typed.
  await link.click()
  const details = page.getByRole('dialog', { name: `Patient Details: ${SURESH}` })
  await expect(details.getByText(parent.patientNumber)).toBeVisible()
  await expect(details.getByText(`+91 ${phone.slice(0, 5)} ${phone.slice(5)}`)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByLabel('Full Name')).toHaveValue(ANAYA)
  await page.getByRole('button', { name: 'Add Patient to System' }).click()
  await expect(page.getByText('Patient Added Successfully!')).toBeVisible()

  // The link also works as an address.
  await page.goto(`/patients?open=${parent.id}`)
  await expect(page.getByRole('dialog', { name: `Patient Details: ${SURESH}` })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page).toHaveURL(/\/patients$/)

  // Editing the child: the parent shares the number (the child is not their own duplicate).
  const card = await findCard(page, ANAYA)
  await card.getByRole('button', { name: /^Edit/ }).click()
  const edit = page.getByRole('dialog', { name: `Edit Patient: ${ANAYA}` })
  await expect(edit.getByLabel('Phone')).toHaveValue(`+91 ${phone.slice(0, 5)} ${phone.slice(5)}`)
  await expect(edit.getByText('This number belongs to 1 patient')).toBeVisible()
  await expect(edit.getByRole('link', { name: SURESH })).toBeVisible()
  await page.screenshot({ path: `${SHOTS}/patients-edit-duplicate-1280.png` })
  const result = await (
    await axe(page)
  )
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
  expect(
    result.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(' | ')})`,
    ),
  ).toEqual([])
  await edit.getByLabel('Allergies').fill('Dust')
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(edit).toBeHidden()
  await expect(card.getByText('Dust')).toBeVisible()

  // Filled and submitted before the check under Phone has run (its pause is held here by the
  // page's clock): the submit checks too and stops once with the warning; saving again saves.
  await page.clock.install()
  await page.goto('/manual-patient')
  await page.getByLabel('Full Name').fill(TARA)
  await page.getByLabel('Phone').fill(phone)
  await page.getByRole('button', { name: 'Add Patient to System' }).click()
  await expect(page.getByText(/^This number belongs to 2 patients\. Check it is not/)).toBeVisible()
  await expect(page.getByText('Patient Added Successfully!')).toHaveCount(0)
  await expect(page.getByLabel('Full Name')).toHaveValue(TARA)
  await page.getByRole('button', { name: 'Add Patient to System' }).click()
  await expect(page.getByText('Patient Added Successfully!')).toBeVisible()
  await context.close()
})

test('closing the edit dialog with changes asks first; Clear Form too', async ({ page }) => {
  await login(page, RECEPTIONIST)
  await createPatientViaApi(page, { name: ROHAN, phone: randomMobile() })
  const card = await findCard(page, ROHAN)
  const edit = page.getByRole('dialog', { name: `Edit Patient: ${ROHAN}` })
  const confirm = page.getByRole('alertdialog', { name: 'Discard changes?' })

  // No changes: Esc just closes.
  await card.getByRole('button', { name: /^Edit/ }).click()
  await expect(edit).toBeVisible()
  await expect.poll(() => edit.evaluate((el) => el.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Escape')
  await expect(edit).toBeHidden()
  await expect(confirm).toHaveCount(0)

  // Changes: Esc asks; Keep editing keeps them.
  await card.getByRole('button', { name: /^Edit/ }).click()
  await edit.getByLabel('Allergies').fill('Pollen')
  await page.keyboard.press('Escape')
  await expect(confirm).toBeVisible()
  await expect(confirm.getByRole('button', { name: 'Keep editing' })).toBeFocused()
  await confirm.getByRole('button', { name: 'Keep editing' }).click()
  await expect(confirm).toBeHidden()
  await expect(edit.getByLabel('Allergies')).toHaveValue('Pollen')

  // The X and Cancel ask too; Discard closes without saving.
  await edit.getByRole('button', { name: 'Close' }).click()
  await expect(confirm).toBeVisible()
  await expect(confirm.getByRole('button', { name: 'Keep editing' })).toBeFocused()
  // Radix learns which layer is on top one render after it focuses the new one: until then its
  // content keeps pointer-events none and an Escape finds no top layer (milliseconds; a person
  // is never that fast, a loaded CI machine can be).
  await expect(confirm).toHaveCSS('pointer-events', 'auto')
  await page.keyboard.press('Escape')
  await expect(confirm).toBeHidden()
  await expect(edit).toBeVisible()
  await edit.getByRole('button', { name: 'Cancel' }).click()
  await confirm.getByRole('button', { name: 'Discard' }).click()
  await expect(edit).toBeHidden()
  await card.getByRole('button', { name: /^Edit/ }).click()
  await expect(edit.getByLabel('Allergies')).toHaveValue('')
  await page.keyboard.press('Escape')

  // Manual Entry: an empty form clears at once, a filled one asks.
  await page.goto('/manual-patient')
  await page.getByRole('button', { name: 'Clear Form' }).click()
  await expect(confirm).toHaveCount(0)
  await page.getByLabel('Full Name').fill('Half Typed')
  await page.getByRole('button', { name: 'Clear Form' }).click()
  await confirm.getByRole('button', { name: 'Keep editing' }).click()
  await expect(page.getByLabel('Full Name')).toHaveValue('Half Typed')
  await page.getByRole('button', { name: 'Clear Form' }).click()
  await confirm.getByRole('button', { name: 'Discard' }).click()
  await expect(page.getByLabel('Full Name')).toHaveValue('')
})
