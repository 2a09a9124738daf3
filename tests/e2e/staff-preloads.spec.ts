import { expect, login, skipLeadsTour, test } from './fixtures'

const ADMIN = 'admin@sanjeevani.demo'

/**
 * The HTML of a signed-in screen asks for its first reads at once (server/modules/seo/
 * staff-head.ts). Each preloaded read must be the very request the page makes: otherwise the
 * browser fetches it twice (the page's own fetch shows as a second resource entry) and, a few
 * seconds after load, warns that the preload was not used.
 */
const screens: { path: string; ready: RegExp }[] = [
  { path: '/', ready: /Welcome back/ },
  { path: '/dashboard', ready: /Recent Leads/ },
  { path: '/patients', ready: /^Patients$/ },
  { path: '/settings', ready: /^Settings$/ },
  { path: '/live-monitoring', ready: /^Live Monitoring$/ },
]

test('each signed-in screen uses the reads its HTML preloaded, fetching none twice', async ({
  page,
}) => {
  const unused: string[] = []
  page.on('console', (m) => {
    if (/preloaded using link preload but not used/.test(m.text())) unused.push(m.text())
  })
  await skipLeadsTour(page)
  await login(page, ADMIN)
  for (const screen of screens) {
    await page.goto(screen.path)
    await expect(page.getByRole('heading', { name: screen.ready }).first()).toBeVisible()
    await page.waitForLoadState('networkidle')
    // Chromium reports an unused preload 3 s after the load event.
    await page.waitForTimeout(3_500)
    const { preloaded, entries } = await page.evaluate(() => ({
      preloaded: [
        ...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="fetch"]'),
      ].map((l) => l.href),
      entries: performance
        .getEntriesByType('resource')
        .map((e) => ({ url: e.name, by: (e as PerformanceResourceTiming).initiatorType })),
    }))
    expect(preloaded.length, `${screen.path} preloads its reads`).toBeGreaterThan(2)
    for (const url of preloaded) {
      const fetched = entries.filter((e) => e.url === url)
      expect(
        fetched.map((e) => e.by),
        `${screen.path}: ${url} fetched once, by the preload`,
      ).toEqual(['link'])
    }
  }
  expect(unused, 'every preloaded read was used').toEqual([])
})
