import { axe, expect, expectNoSidewaysScroll, login, skipLeadsTour, test } from './fixtures'
import { E2E_META_PAGE } from './support/meta-page'

const SHOTS = 'test-results/e2e/screenshots'

test('an admin connects Meta lead ads, tests it, and Sync Leads brings the leads in', async ({
  page,
}) => {
  // Smile Dental: the other e2e files leave its Meta connection alone.
  await login(page, 'admin@smiledental.demo')
  await page.goto('/settings?tab=integrations')
  await expect(page).toHaveTitle('Settings · Arogya CRM')
  const card = page.getByRole('heading', { name: 'Meta lead ads (Facebook and Instagram)' })
  await expect(card).toBeVisible()
  await expect(page.getByText('Not synced yet')).toBeVisible()
  await expect(page.getByTestId('sync-ok')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Test Connection' })).toBeDisabled()

  // Bad input is said next to the field, and nothing is saved.
  await page.getByLabel('Facebook page ID').fill('my-page')
  await page.getByRole('button', { name: 'Save Meta connection' }).click()
  await expect(page.getByText('Page ID must be the numeric Facebook page ID')).toBeVisible()

  // First a token Meta does not know: the test says so in Meta's words.
  const token = E2E_META_PAGE.token
  await page.getByLabel('Facebook page ID').fill(E2E_META_PAGE.id)
  await page.getByLabel('Page access token').fill(`EAAGwrong${'x'.repeat(30)}`)
  await page.getByLabel('App secret').fill(E2E_META_PAGE.appSecret)
  await page.getByLabel('Webhook verify token').fill('a-long-random-verify-token-Vt77')
  await page.getByRole('button', { name: 'Save Meta connection' }).click()
  await expect(page.getByText('Settings saved successfully')).toBeVisible()
  await expect(page.getByLabel('Page access token')).toHaveValue('')
  await page.getByRole('button', { name: 'Test Connection' }).click()
  await expect(page.getByText('Connection failed')).toBeVisible()
  await expect(page.getByText(/Needs attention/)).toBeVisible()

  await page.getByLabel('Page access token').fill(token)
  await page.getByRole('button', { name: 'Save Meta connection' }).click()
  await expect(page.getByText('Set, ends in Tk42')).toBeVisible()
  await expect(page.getByText('Set, ends in S3c9')).toBeVisible()
  await expect(page.getByText('Set, ends in Vt77')).toBeVisible()
  await expect(
    page.getByText('Webhook not active yet: run Test Connection to verify the page and app secret'),
  ).toBeVisible()

  // After a reload: still set, and the secret is nowhere in the page or its API answer.
  await page.reload()
  await expect(page.getByLabel('Facebook page ID')).toHaveValue(E2E_META_PAGE.id)
  await expect(page.getByText('Set, ends in Tk42')).toBeVisible()
  expect(await page.content()).not.toContain(token)
  const api = await page.request.get('/api/integrations/meta')
  expect(await api.text()).not.toContain(token)

  await page.getByRole('button', { name: 'Test Connection' }).click()
  await expect(page.getByText(`Connected to ${E2E_META_PAGE.name}`)).toBeVisible()
  await expect(
    page.getByText(`Webhook active: new leads of page ${E2E_META_PAGE.id} arrive by themselves`),
  ).toBeVisible()

  // Deliveries for the page that fail the signature check (its webhook is another app's, or
  // forged): after a few, Settings asks for attention; a fresh Test Connection clears it.
  const forged = JSON.stringify({
    object: 'page',
    entry: [
      {
        id: E2E_META_PAGE.id,
        changes: [{ field: 'leadgen', value: { leadgen_id: '1', page_id: E2E_META_PAGE.id } }],
      },
    ],
  })
  for (let i = 0; i < 5; i++) {
    const res = await page.request.post('/api/webhooks/meta', {
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
      },
      data: forged,
    })
    expect(res.status()).toBe(403)
  }
  await page.reload()
  await expect(
    page.getByText(
      'Needs attention: Webhook deliveries for this page fail the signature check: check the App Secret',
      { exact: false },
    ),
  ).toBeVisible()
  const warned = await (await axe(page)).analyze()
  expect(warned.violations.map((v) => v.id)).toEqual([])
  await page.getByRole('button', { name: 'Test Connection' }).click()
  await expect(page.getByText(`Connected to ${E2E_META_PAGE.name}`)).toBeVisible()
  await expect(page.getByText(/fail the signature check/)).toHaveCount(0)

  const audit = await (await axe(page)).analyze()
  expect(audit.violations.map((v) => v.id)).toEqual([])
  await page.setViewportSize({ width: 360, height: 740 })
  await expectNoSidewaysScroll(page, 'Settings at 360px')
  await page.screenshot({ path: `${SHOTS}/settings-meta-360.png`, fullPage: true })
  await page.setViewportSize({ width: 1280, height: 800 })

  // Sync Leads on the dashboard: the server asks Meta, and the leads are in the list.
  await skipLeadsTour(page)
  await page.goto('/leads')
  await page.getByRole('button', { name: 'Sync Leads' }).click()
  await expect(page.getByText('Leads synced')).toBeVisible()
  await expect(
    page.getByText('3 from Meta: 2 new, 0 already here, 1 could not be stored'),
  ).toBeVisible()
  await page.getByRole('searchbox', { name: 'Search leads' }).fill('Arjun Hegde')
  const row = page.getByTestId('lead-row').filter({ hasText: 'Arjun Hegde' })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Instagram')
  // Again: nothing new, nothing doubled.
  await page.getByRole('button', { name: 'Sync Leads' }).click()
  await expect(page.getByText(/0 new/)).toBeVisible()
  await expect(row).toHaveCount(1)

  // A secret can be removed; Sync then says what to set.
  await page.goto('/settings?tab=integrations')
  await page.getByRole('button', { name: 'Remove page access token' }).click()
  await expect(page.getByText('Set, ends in Tk42')).toHaveCount(0)
  await expect(page.getByText('Set, ends in S3c9')).toBeVisible()
  await page.goto('/leads')
  await page.getByRole('button', { name: 'Sync Leads' }).click()
  await expect(page.getByText('Sync Failed')).toBeVisible()
  await expect(page.getByText(/page access token is not set/)).toBeVisible()
})

test('staff other than the admin are told who sets integrations up', async ({ page }) => {
  await login(page, 'receptionist@smiledental.demo')
  await page.goto('/settings?tab=integrations')
  await expect(
    page.getByText("Only your hospital's admin can change its integrations."),
  ).toBeVisible()
  await expect(page.getByLabel('Page access token')).toHaveCount(0)
})
