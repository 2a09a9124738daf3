import { readFileSync } from 'node:fs'
import { extractText, getDocumentProxy } from 'unpdf'
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

test('create a Tax Invoice with a taxable and an exempt line, mark it paid by UPI, download the PDF', async ({
  page,
}) => {
  test.slow()
  await login(page, 'receptionist@sanjeevani.demo')
  const patient = await createPatientViaApi(page, {
    name: uniqueName('Meera', 'Deshpande'),
    phone: randomMobile(),
  })
  await page.goto('/billing')
  await expect(page.getByRole('heading', { name: 'Billing & Invoices', level: 1 })).toBeVisible()
  await expect(page.getByTestId('invoice-card').first()).toBeVisible()
  await expect(page.getByRole('region', { name: 'Invoice summary' })).toContainText('Total Revenue')
  await expectNoAxeViolations(page, 'the billing page')
  // At 1280 px each summary figure is one line inside its card ("₹1,97,197.|05" wrapped; item 8).
  await page.setViewportSize({ width: 1280, height: 800 })
  const figures = page.getByRole('region', { name: 'Invoice summary' }).locator('.font-bold')
  await expect(figures).toHaveCount(4)
  for (const figure of await figures.all()) {
    const fit = await figure.evaluate((el) => {
      const range = document.createRange()
      range.selectNodeContents(el)
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)))
      const card = el.parentElement?.getBoundingClientRect()
      return {
        lines: tops.size,
        inside: !card || range.getBoundingClientRect().right <= card.right,
      }
    })
    expect(fit, await figure.innerText()).toEqual({ lines: 1, inside: true })
  }

  // New Invoice: the patient by search, a catalogue line (exempt) and a typed one (12 % GST).
  await page.getByRole('button', { name: 'New Invoice' }).click()
  const dialog = page.getByRole('dialog', { name: 'New Invoice' })
  await dialog.getByLabel('Search patients to bill').fill(patient.name)
  await dialog.getByRole('button', { name: new RegExp(patient.name) }).click()
  await expect(dialog.getByTestId('picked-patient')).toHaveText(patient.name)
  const lines = dialog.getByTestId('invoice-line')
  await lines
    .nth(0)
    .getByLabel('From the catalogue')
    .selectOption({ label: 'OPD consultation (₹500.00)' })
  await expect(lines.nth(0).getByLabel('Unit price (₹)')).toHaveValue('500')
  await expect(dialog.getByTestId('preview-kind')).toHaveText('Bill of Supply')
  await dialog.getByRole('button', { name: 'Add line' }).click()
  await lines.nth(1).getByLabel('Service name').fill('Knee brace (hinged)')
  await lines.nth(1).getByLabel('SAC/HSN code').fill('9021')
  await lines.nth(1).getByLabel('Unit price (₹)').fill('1,450')
  await lines.nth(1).getByLabel('GST rate').selectOption('12')
  const preview = dialog.getByTestId('totals-preview')
  await expect(dialog.getByTestId('preview-kind')).toHaveText('Tax Invoice')
  // 12 % of ₹1,450.00 is ₹174.00: ₹87.00 CGST + ₹87.00 SGST; ₹500 + ₹1,450 + ₹174. The exempt
  // ₹500 is exempt value, not taxable value (issue 40 item 3).
  await expect(preview).toContainText('Exempt value₹500.00')
  await expect(preview).toContainText('Taxable value₹1,450.00')
  await expect(preview).toContainText('CGST @ 6%₹87.00')
  await expect(preview).toContainText('SGST @ 6%₹87.00')
  await expect(preview).toContainText('Total₹2,124.00')
  await expectNoAxeViolations(page, 'the New Invoice dialog')
  await dialog.getByRole('button', { name: 'Create Invoice' }).click()
  await expect(page.getByText('Invoice created', { exact: true })).toBeVisible()
  await expect(dialog).toBeHidden()

  // The card: newest first, Tax Invoice, pending, the amount with Indian grouping.
  const card = page.getByTestId('invoice-card').filter({ hasText: patient.name })
  await expect(card).toHaveCount(1)
  await expect(card).toContainText('Tax Invoice')
  await expect(card).toContainText('₹2,124.00')
  await expect(card.getByText('Pending', { exact: true })).toBeVisible()
  const number = (await card.getByRole('heading', { level: 2 }).textContent())?.trim() ?? ''
  expect(number).toMatch(/^[A-Z0-9-]+\/\d{4}-\d{2}\/\d{6}$/)

  // View Details: the server's taxes and the amount in words.
  await card.getByRole('button', { name: /View Details/ }).click()
  const details = page.getByRole('dialog', { name: `Invoice ${number}` })
  await expect(details.getByRole('region', { name: 'Invoice lines' })).toContainText(
    'Knee brace (hinged)',
  )
  await expect(details.getByLabel('Totals')).toContainText('Taxable value₹1,450.00')
  await expect(details.getByLabel('Totals')).toContainText('CGST @ 6%₹87.00')
  await expect(details.getByLabel('Totals')).toContainText('SGST @ 6%₹87.00')
  await expect(details.getByTestId('amount-in-words')).toContainText('Two Thousand One Hundred')
  await expectNoAxeViolations(page, 'the invoice details dialog')
  await details.getByRole('button', { name: 'Close' }).click()

  // Mark Paid by UPI with a reference: the spec's toast, and the card turns paid.
  await card.getByRole('button', { name: /Mark Paid/ }).click()
  const pay = page.getByRole('dialog', { name: `Mark Paid: ${number}` })
  await pay.getByLabel('Payment method').selectOption('upi')
  await expect(pay.getByLabel('Amount (₹)')).toHaveValue('2124')
  await pay.getByLabel('Reference').fill('UPI-432198765012')
  await expectNoAxeViolations(page, 'the Mark Paid dialog')
  await pay.getByRole('button', { name: 'Mark Paid', exact: true }).click()
  await expect(page.getByText('Invoice updated successfully', { exact: true })).toBeVisible()
  await expect(pay).toBeHidden()
  await expect(card.getByText('Paid', { exact: true }).first()).toBeVisible()
  await expect(card.getByRole('button', { name: /Mark Paid/ })).toHaveCount(0)

  // Download PDF: a real PDF that names the invoice.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('link', { name: /Download PDF/ }).click(),
  ])
  expect(download.suggestedFilename()).toBe(`${number.replace(/\//g, '-')}.pdf`)
  const bytes = readFileSync(await download.path())
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF')
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), {
    mergePages: true,
  })
  expect(text).toContain(number)
  expect(text).toContain('Tax Invoice')
  expect(text).toContain(patient.name)
})

test('a viewer reads but cannot bill; the filters empty state; no sideways scroll at 360 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await login(page, 'viewer@sanjeevani.demo')
  await page.goto('/billing')
  await expect(page.getByRole('heading', { name: 'Billing & Invoices', level: 1 })).toBeVisible()
  const cards = page.getByTestId('invoice-card')
  await expect(cards.first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'Export CSV' })).toBeVisible()
  for (const name of ['New Invoice', 'Services']) {
    await expect(page.getByRole('button', { name })).toHaveCount(0)
  }
  await expect(page.getByRole('button', { name: /^Mark Paid/ })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Cancel/ })).toHaveCount(0)
  await expectNoSidewaysScroll(page, 'the billing page at 360 px')

  // The status filter: only overdue invoices, and the CSV link follows the filter.
  await page.getByLabel('Filter by status').selectOption('overdue')
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    '/api/invoices/export.csv?status=overdue',
  )
  await expect(cards.first()).toBeVisible()
  await expect(cards.locator('[data-status]').filter({ hasNotText: 'Overdue' })).toHaveCount(0)
  await cards
    .first()
    .getByRole('button', { name: /View Details/ })
    .click()
  const details = page.getByRole('dialog', { name: /^Invoice / })
  await expect(details.getByRole('region', { name: 'Invoice lines' })).toBeVisible()
  await expectNoSidewaysScroll(page, 'the invoice details at 360 px')
  await details.getByRole('button', { name: 'Close' }).click()

  // A search that matches nothing: the spec's empty state for filters.
  await page.getByLabel('Search invoices').fill('zzqx-no-such-invoice')
  await expect(page.getByText('No invoices found')).toBeVisible()
  await expect(page.getByText('Try adjusting your filters')).toBeVisible()
  await expectNoAxeViolations(page, 'the billing empty state')
})

test('New Invoice says what is missing, and fits a 360 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await login(page, 'admin@sanjeevani.demo')
  await page.goto('/billing')
  await page.getByRole('button', { name: 'New Invoice' }).click()
  const dialog = page.getByRole('dialog', { name: 'New Invoice' })
  await dialog.getByTestId('invoice-line').first().getByLabel('Quantity').fill('0')
  await dialog.getByRole('button', { name: 'Create Invoice' }).click()
  await expect(dialog.getByText('Choose a patient')).toBeVisible()
  await expect(dialog.getByText('Service name is required')).toBeVisible()
  await expect(dialog.getByText('Quantity must be at least 1')).toBeVisible()
  await expect(dialog.getByText(/Enter an amount in rupees/)).toBeVisible()
  await expectNoSidewaysScroll(page, 'the New Invoice dialog at 360 px')
  await expectNoAxeViolations(page, 'the New Invoice dialog with errors')
})
