import { expect, expectNoAxeViolations, expectNoSidewaysScroll, login, test } from './fixtures'

// Issue 28, FAQ Management: Smile Dental starts with no FAQs (the pre-built card), adds all 8,
// reorders, adds, edits and deletes one; then its public page, signed out, with a search.

const SHOTS = 'test-results/e2e/screenshots'

test('an admin adds the pre-built FAQs, reorders, creates, edits and deletes one; the public page shows them signed out', async ({
  page,
  browser,
}) => {
  // Many steps, each a save and a list reload; the machine may be busy.
  test.setTimeout(180_000)
  await login(page, 'admin@smiledental.demo')
  await page.goto('/faqs')
  await expect(page).toHaveTitle('FAQ Management · Arogya CRM')
  await expect(page.getByRole('heading', { name: 'FAQ Management', level: 1 })).toBeVisible()

  // None yet: the pre-built card with the first 3 of 8, and Add All.
  await expect(page.getByText('Get Started with Pre-built FAQs')).toBeVisible()
  await expect(page.getByText('How do I add a new patient?')).toBeVisible()
  await expect(page.getByText('How are leads from Facebook and Instagram imported?')).toBeVisible()
  await expect(page.getByText('How do I create and send an invoice?')).toHaveCount(0)
  await expectNoAxeViolations(page, 'the FAQ page with the pre-built card')
  await page.getByRole('button', { name: 'Add All' }).click()
  // The FAQs themselves, not the list items inside their answers: staff help, not public.
  const items = page.getByRole('list', { name: 'Staff help in order' }).locator(':scope > li')
  await expect(items).toHaveCount(8)
  await expect(page.getByText('No patient FAQs yet.', { exact: false })).toBeVisible()
  await expect(items.first().getByText('Staff only')).toBeVisible()

  // Move the first one down: the order is saved (it survives a reload).
  await page.getByRole('button', { name: 'Move down: How do I add a new patient?' }).click()
  await expect(page.getByText('FAQ order saved')).toBeVisible()
  await page.reload()
  await expect(items.first()).toContainText('How do I schedule an appointment?')
  await expect(items.nth(1)).toContainText('How do I add a new patient?')
  await expect(
    page.getByRole('button', { name: 'Move up: How do I schedule an appointment?' }),
  ).toBeDisabled()

  // Add: question and answer are required; the answer's list and link are formatted.
  await page.getByRole('button', { name: 'Add FAQ' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add FAQ' })
  await dialog.getByRole('button', { name: 'Add FAQ' }).click()
  await expect(dialog.getByText('Question is required')).toBeVisible()
  await expect(dialog.getByText('Answer is required')).toBeVisible()
  await expectNoAxeViolations(page, 'the Add FAQ dialog')
  await dialog.getByRole('textbox', { name: 'Question' }).fill('What are your OPD timings?')
  await dialog
    .getByRole('textbox', { name: 'Answer' })
    .fill(
      'Monday to Saturday:\n- Morning 9 am to 1 pm\n- Evening 5 pm to 9 pm\n\nSee [our timings](https://example.in/timings). <b>bold</b>',
    )
  await dialog.getByRole('spinbutton', { name: 'Sort order' }).fill('20')
  await dialog.getByRole('button', { name: 'Add FAQ' }).click()
  await expect(dialog.getByText(/HTML tags are not allowed/)).toBeVisible()
  await dialog
    .getByRole('textbox', { name: 'Answer' })
    .fill(
      'Monday to Saturday:\n- Morning 9 am to 1 pm\n- Evening 5 pm to 9 pm\n\nSee [our timings](https://example.in/timings).',
    )
  await dialog.getByRole('button', { name: 'Add FAQ' }).click()
  await expect(page.getByText('FAQ created successfully')).toBeVisible()
  const item = page.getByRole('article', { name: 'What are your OPD timings?' })
  await expect(item.getByRole('listitem')).toHaveText([
    'Morning 9 am to 1 pm',
    'Evening 5 pm to 9 pm',
  ])
  await expect(item.getByRole('link', { name: 'our timings' })).toHaveAttribute(
    'href',
    'https://example.in/timings',
  )

  // Edit it.
  await page.getByRole('button', { name: 'Edit FAQ: What are your OPD timings?' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit FAQ' })
  await edit.getByRole('textbox', { name: 'Question' }).fill('What are your clinic timings?')
  await edit.getByRole('button', { name: 'Update FAQ' }).click()
  await expect(page.getByText('FAQ updated successfully')).toBeVisible()
  await expect(page.getByRole('article', { name: 'What are your clinic timings?' })).toBeVisible()

  // Search and filter.
  await page.getByRole('searchbox', { name: 'Search FAQs' }).fill('UPI')
  await expect(items).toHaveCount(1)
  await page.getByRole('searchbox', { name: 'Search FAQs' }).fill('')
  await page.getByLabel('Filter by category').selectOption('billing')
  await expect(items).toHaveCount(2)
  await page.getByLabel('Filter by category').selectOption('all')

  // Delete with the spec's confirmation.
  await page.getByRole('button', { name: 'Delete FAQ: What are your clinic timings?' }).click()
  const confirm = page.getByRole('alertdialog', {
    name: 'Are you sure you want to delete this FAQ?',
  })
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('FAQ deleted successfully')).toBeVisible()
  await expect(items).toHaveCount(8)
  // The payment methods FAQ is made public: it moves to the patients' list.
  await page
    .getByRole('button', { name: 'Edit FAQ: Which payment methods can patients use?' })
    .click()
  const publish = page.getByRole('dialog', { name: 'Edit FAQ' })
  await publish.getByRole('radio', { name: /^Patients \(public FAQ page\)/ }).check()
  await publish.getByRole('button', { name: 'Update FAQ' }).click()
  // The first edit's toast may still be showing on a slow machine: this one is the newest.
  await expect(page.getByText('FAQ updated successfully').last()).toBeVisible()
  await expect(
    page.getByRole('list', { name: 'Patient FAQs in order' }).getByRole('article'),
  ).toHaveAccessibleName('Which payment methods can patients use?')
  await expect(items).toHaveCount(7)
  await expectNoAxeViolations(page, 'the FAQ list')
  await page.screenshot({ path: `${SHOTS}/faqs-1280.png`, fullPage: true })
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoSidewaysScroll(page, 'the FAQ page at 360 px')
  await page.screenshot({ path: `${SHOTS}/faqs-360.png`, fullPage: true })

  // The public page, signed out: the hospital's name, grouped FAQs and a search.
  const url = await page.getByText(/\/h\/[a-z0-9-]+\/faq$/).textContent()
  const guest = await (await browser.newContext()).newPage()
  const response = await guest.goto(url ?? '')
  expect(response?.status()).toBe(200)
  await expect(guest).toHaveTitle('Frequently asked questions · Smile Dental Clinic, Bengaluru')
  await expect(guest.getByRole('heading', { name: 'Billing', level: 2 })).toBeVisible()
  await guest.getByRole('searchbox', { name: 'Search questions' }).fill('UPI')
  await guest.getByRole('button', { name: 'Search' }).click()
  await expect(guest.getByRole('status')).toContainText('1 answer for “UPI”')
  await expect(guest.getByText('Which payment methods can patients use?')).toBeVisible()
  await expect(guest.getByText('How do I add a new patient?')).toHaveCount(0)
  await expectNoAxeViolations(guest, 'the public FAQ page')
  await guest.setViewportSize({ width: 360, height: 800 })
  await expectNoSidewaysScroll(guest, 'the public FAQ page at 360 px')
  await guest.screenshot({ path: `${SHOTS}/faqs-public-360.png`, fullPage: true })
  await guest.context().close()
})

test('a doctor reads the FAQs but sees no editing buttons', async ({ page }) => {
  await login(page, 'doctor@sanjeevani.demo')
  await page.goto('/faqs')
  await expect(page.getByRole('article', { name: 'How do I add a new patient?' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Add FAQ' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Edit FAQ/ })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Move down/ })).toHaveCount(0)
})
