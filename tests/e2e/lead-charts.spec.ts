import { axe, expect, expectNoSidewaysScroll, login, skipLeadsTour, test } from './fixtures'

const SHOTS = 'test-results/e2e/screenshots'
const ADMIN = 'admin@sanjeevani.demo'
const CHARTS = 'section[aria-label="Lead charts"]'

test.beforeEach(async ({ page }) => {
  await skipLeadsTour(page)
})

test('the dashboard charts leads per day and the funnel, in a chunk of their own', async ({
  page,
}) => {
  const chartChunks: string[] = []
  page.on('request', (r) => {
    if (/lead-charts-.*\.js/.test(r.url())) chartChunks.push(r.url())
  })
  await page.setViewportSize({ width: 1280, height: 800 })
  await login(page, ADMIN)
  await page.goto('/patients')
  await expect(page.getByRole('heading', { level: 1, name: 'Patients', exact: true })).toBeVisible()
  expect(chartChunks, 'no chart code on /patients').toEqual([])

  await page.goto('/dashboard')
  const perDay = page.getByRole('img', { name: 'Leads per day (last 30 days)' })
  const funnel = page.getByRole('img', { name: 'Lead funnel' })
  await expect(perDay).toBeVisible()
  await expect(funnel).toBeVisible()
  expect(chartChunks.length).toBeGreaterThan(0)

  // The figures behind each chart, for screen readers and anyone who wants the numbers.
  const charts = page.locator(CHARTS)
  const showFigures = charts.locator('summary', { hasText: 'Show the figures' })
  await showFigures.first().click()
  await expect(charts.getByRole('table').first().getByRole('row')).toHaveCount(31)
  await showFigures.nth(1).click()
  const funnelRows = charts.getByRole('table').nth(1).getByRole('row')
  await expect(funnelRows.nth(1)).toContainText('New')
  await expect(funnelRows.nth(1)).toContainText('100%')
  await expect(funnelRows.nth(4)).toContainText('Converted')
  await expect(charts.getByText('Facebook').first()).toBeVisible()
  await page.screenshot({ path: `${SHOTS}/lead-charts-1280.png`, fullPage: true })

  const audit = await (await axe(page)).include(CHARTS).analyze()
  expect(audit.violations.map((v) => v.id)).toEqual([])

  await page.setViewportSize({ width: 360, height: 740 })
  await expect(perDay).toBeVisible()
  await expectNoSidewaysScroll(page, 'lead charts at 360px')
  await page.screenshot({ path: `${SHOTS}/lead-charts-360.png`, fullPage: true })
})

test('the charts say when there is nothing to show, and recover from an error', async ({
  page,
}) => {
  await login(page, ADMIN)
  let fail = true
  await page.route('**/api/leads/trends', async (route) => {
    if (fail) await route.fulfill({ status: 500, body: '{"message":"boom","code":"INTERNAL"}' })
    else await route.continue()
  })
  await page.goto('/dashboard')
  await expect(page.getByText('Failed to load the charts.')).toBeVisible()
  fail = false
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(page.getByRole('img', { name: 'Lead funnel' })).toBeVisible()

  await page.unroute('**/api/leads/trends')
  await page.route('**/api/leads/trends', async (route) => {
    const response = await route.fetch()
    const body = (await response.json()) as {
      days: { date: string; counts: Record<string, number> }[]
      funnel: Record<string, number>
    }
    const zero = (o: Record<string, number>) =>
      Object.fromEntries(Object.keys(o).map((k) => [k, 0]))
    await route.fulfill({
      response,
      json: {
        days: body.days.map((d) => ({ ...d, counts: zero(d.counts) })),
        funnel: zero(body.funnel),
      },
    })
  })
  await page.reload()
  await expect(page.getByText('No leads in the last 30 days')).toBeVisible()
})

test('on a phone the charts start folded and load only when asked', async ({ page }) => {
  const chartChunks: string[] = []
  page.on('request', (r) => {
    if (/(lead-charts|BarChart)-.*\.js/.test(r.url())) chartChunks.push(r.url())
  })
  await page.setViewportSize({ width: 360, height: 740 })
  await login(page, ADMIN)
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { name: 'Recent Leads' })).toBeVisible()
  const show = page.getByRole('button', { name: 'Show lead charts' })
  await expect(show).toHaveAttribute('aria-expanded', 'false')
  expect(chartChunks, 'no chart code before asking').toEqual([])
  await expectNoSidewaysScroll(page, 'folded lead charts at 360px')

  await show.click()
  await expect(page.getByRole('img', { name: 'Leads per day (last 30 days)' })).toBeVisible()
  expect(chartChunks.length).toBeGreaterThan(0)
})
