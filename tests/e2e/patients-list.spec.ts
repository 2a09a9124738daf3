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
const LAPTOP = { width: 1280, height: 800 }
const PHONE = { width: 360, height: 740 }

const search = (page: Page) => page.getByPlaceholder('Search patients by name, email, or phone...')

/** A UAE mobile (an NRI patient's), in E.164 and as the list shows it. */
function uaeMobile() {
  const digits = String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')
  return { e164: `+97150${digits}`, shown: `+971 50 ${digits.slice(0, 3)} ${digits.slice(3)}` }
}

/** Every text field at its longest, without a space to break at. */
function longPatient(tag: string, phone: string) {
  return {
    name: `${tag}${'N'.repeat(200 - tag.length)}`,
    phone,
    email: `${'e'.repeat(64)}@${'d'.repeat(63)}.${'x'.repeat(63)}.com`,
    dateOfBirth: '1985-07-01',
    gender: 'female',
    address: 'A'.repeat(500),
    emergencyContact: 'C'.repeat(300),
    medicalHistory: 'H'.repeat(5000),
    allergies: 'L'.repeat(2000),
    insuranceProvider: 'P'.repeat(200),
    insuranceNumber: 'I'.repeat(100),
    abhaNumber: '12345678901234',
  }
}

/** The dialog's content fits inside it (nothing clipped by its hidden sideways overflow). */
async function expectDialogFits(page: Page, name: RegExp) {
  const dialog = page.getByRole('dialog', { name })
  await expect(dialog).toBeVisible()
  const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)
  expect(overflow, `${String(name)} is wider than itself`).toBeLessThanOrEqual(0)
}

async function switchView(page: Page, view: 'Cards' | 'Table') {
  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: view }).click()
}

test('long unbroken text never makes the list, details or edit dialog scroll sideways', async ({
  page,
}) => {
  await page.setViewportSize(LAPTOP)
  await login(page, RECEPTIONIST)
  // Another country's number: the list loads every country's formats for it (Indian ones
  // are formatted without them).
  const phone = uaeMobile()
  const created = await createPatientViaApi(page, longPatient('Overflow', phone.e164))

  for (const size of [LAPTOP, PHONE]) {
    // Loaded at each size, as a phone or a laptop would (the sidebar starts closed on a phone).
    await page.setViewportSize(size)
    await page.goto('/patients')
    await search(page).fill(created.patientNumber)
    await expect(page.getByTestId('patients-count')).toHaveText(
      `1 match for "${created.patientNumber}"`,
    )
    const views = size === LAPTOP ? (['Cards', 'Table'] as const) : (['Cards'] as const)
    for (const view of views) {
      if (size === LAPTOP) await switchView(page, view)
      const item = page.getByTestId(view === 'Cards' ? 'patient-card' : 'patient-row')
      await expect(item).toHaveCount(1)
      await expect(item).toContainText(phone.shown)
      await expectNoSidewaysScroll(page, `the list (${view}) at ${size.width}px`)
      if (view === 'Table') {
        const table = page.locator('table').locator('..')
        const inner = await table.evaluate((el) => el.scrollWidth - el.clientWidth)
        expect(inner, 'the table scrolls sideways').toBeLessThanOrEqual(0)
        // Full texts are in the tooltips.
        await expect(item.getByRole('button', { name: /^View details of / })).toHaveAttribute(
          'title',
          created.name,
        )
      } else {
        await expect(item.getByText('H'.repeat(5000))).toHaveAttribute('title', 'H'.repeat(5000))
      }
    }
    if (size === PHONE) {
      await expect(page.getByRole('group', { name: 'View' })).toHaveCount(0)
    }

    const card = page.getByTestId('patient-card')
    const row = page.getByTestId('patient-row')
    if (await row.count()) await row.getByRole('button', { name: /^View details of / }).click()
    else await card.getByRole('button', { name: /View Details/ }).click()
    await expectDialogFits(page, /^Patient Details: Overflow/)
    await expectNoSidewaysScroll(page, `the details dialog at ${size.width}px`)
    await expect(page.getByRole('dialog').getByText('H'.repeat(5000))).toBeVisible()
    await page.keyboard.press('Escape')

    if (await row.count()) await row.getByRole('button', { name: /^Edit / }).click()
    else await card.getByRole('button', { name: /^Edit/ }).click()
    await expectDialogFits(page, /^Edit Patient: Overflow/)
    await expectNoSidewaysScroll(page, `the edit dialog at ${size.width}px`)
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toHaveCount(0)
  }
})

test('the table view fits 15 patients on a laptop, is remembered, and passes axe', async ({
  page,
}) => {
  await page.setViewportSize(LAPTOP)
  await login(page, RECEPTIONIST)
  await page.goto('/patients')
  await expect(page.getByTestId('patient-card').first()).toBeVisible()
  await page.screenshot({ path: `${SHOTS}/patients-cards-1280.png` })
  await switchView(page, 'Table')
  await expect(page.getByTestId('patient-row').first()).toBeVisible()

  await page.reload()
  await expect(
    page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Table' }),
  ).toHaveAttribute('aria-pressed', 'true')
  const rows = page.getByTestId('patient-row')
  await expect(rows.first()).toBeVisible()
  const bottoms = await rows.evaluateAll((els) =>
    els.map((el) => el.getBoundingClientRect().bottom),
  )
  const onScreen = bottoms.filter((b) => b <= LAPTOP.height).length
  expect(onScreen, 'rows visible without scrolling at 1280x800').toBeGreaterThanOrEqual(15)
  // Phones are formatted (the newest row may be another test's UAE number): none in E.164.
  await expect(rows.filter({ hasText: /\+91 \d{5} \d{5}/ }).first()).toBeVisible()
  await expect(rows.filter({ hasText: /\+\d{10,}/ })).toHaveCount(0)
  await page.screenshot({ path: `${SHOTS}/patients-table-1280.png` })
  await expectNoSidewaysScroll(page, 'the table at 1280px')

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

  // Narrower screens (sidebar open from 768px) drop columns rather than scroll sideways.
  for (const width of [1024, 800, 768, 700, 640]) {
    await page.setViewportSize({ width, height: 800 })
    await expect(rows.first()).toBeVisible()
    const inner = await page
      .locator('table')
      .locator('..')
      .evaluate((el) => el.scrollWidth - el.clientWidth)
    expect(inner, `the table scrolls sideways at ${width}px`).toBeLessThanOrEqual(0)
    await expectNoSidewaysScroll(page, `the table at ${width}px`)
    const nameWidth = await rows
      .first()
      .getByRole('button')
      .first()
      .evaluate((el) => {
        const cell = el.closest('td')
        return cell ? cell.getBoundingClientRect().width : 0
      })
    expect(nameWidth, `the name column at ${width}px`).toBeGreaterThanOrEqual(120)
  }

  // Phones get cards whatever was chosen; the choice is still there on a laptop again.
  await page.setViewportSize(PHONE)
  await page.reload() // as a phone opens it: the sidebar starts closed
  await expect(page.getByTestId('patient-card').first()).toBeVisible()
  await expect(page.getByTestId('patient-row')).toHaveCount(0)
  await expectNoSidewaysScroll(page, 'the list at 360px')
  await page.screenshot({ path: `${SHOTS}/patients-cards-360.png` })
  await page.screenshot({ path: `${SHOTS}/patients-cards-360-full.png`, fullPage: true })
  await page.setViewportSize(LAPTOP)
  await expect(page.getByTestId('patient-row').first()).toBeVisible()
})

test('newest first by default, with the count, the end of the list, and sort by name', async ({
  page,
}) => {
  await page.setViewportSize(LAPTOP)
  await login(page, RECEPTIONIST)
  const ZUBIN = uniqueName('Zubin', 'Sortcheck')
  const created = await createPatientViaApi(page, {
    name: ZUBIN,
    phone: randomMobile(),
  })
  await page.goto('/patients')
  await switchView(page, 'Cards')
  await expect(page.getByLabel('Sort by')).toHaveValue('recent')
  await expect(page.getByTestId('patient-card').first()).toContainText(ZUBIN)
  await expect(page.getByTestId('patient-card').first()).toContainText(created.patientNumber)
  const count = page.getByTestId('patients-count')
  await expect(count).toHaveText(/^\d+ patients$/)
  const total = Number((await count.textContent())?.split(' ')[0])
  expect(total).toBeGreaterThan(30)

  // Scrolling loads the rest, and the end is marked.
  const end = page.getByTestId('end-of-list')
  for (let i = 0; i < 20 && !(await end.isVisible()); i++) {
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    await page.waitForTimeout(200)
  }
  await expect(end).toHaveText(`End of list: all ${total} patients shown`)
  await expect(page.getByTestId('patient-card')).toHaveCount(total)

  // Sorted by name, the Z comes later; a search says how many match.
  await page.getByLabel('Sort by').selectOption('name')
  await expect(page.getByTestId('patient-card').first()).not.toContainText(ZUBIN)
  await search(page).fill(ZUBIN)
  await expect(count).toHaveText(`1 match for "${ZUBIN}"`)
  await expect(end).toHaveText('End of list: the only match shown')
  // The patient number finds them too.
  await search(page).fill(created.patientNumber)
  await expect(page.getByTestId('patient-card')).toHaveCount(1)
})
