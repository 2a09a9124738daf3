import type { Page } from '@playwright/test'
import { formatRupees } from '../../src/shared/money'
import { addOnCategories, plans } from '../../src/shared/plans'
import { expect, login, test } from './fixtures'

const SHOTS = 'test-results/e2e/screenshots'

/** The plan card of a plan, found by its heading. */
const planCard = (page: Page, name: string) => page.getByRole('article', { name, exact: true })

async function expectMonthlyFigures(page: Page) {
  for (const plan of plans) {
    const card = planCard(page, plan.name)
    if (!plan.price) {
      await expect(card.getByText('Priced by quote.')).toBeVisible()
      continue
    }
    await expect(card.getByText(formatRupees(plan.price.monthly), { exact: true })).toBeVisible()
    await expect(card.getByText(formatRupees(plan.price.list), { exact: true })).toBeVisible()
    await expect(card.getByText('Billed monthly')).toBeVisible()
    await expect(
      card.getByText(formatRupees(plan.price.annualMonthly), { exact: true }),
    ).toHaveCount(0)
  }
}

async function expectAnnualFigures(page: Page) {
  for (const plan of plans) {
    if (!plan.price) continue
    const card = planCard(page, plan.name)
    await expect(
      card.getByText(formatRupees(plan.price.annualMonthly), { exact: true }),
    ).toBeVisible()
    await expect(
      card.getByText(`You save ${formatRupees(plan.price.annualSaving)} a year`),
    ).toBeVisible()
    await expect(card.getByText(formatRupees(plan.price.list), { exact: true })).toBeVisible()
    await expect(card.getByText(formatRupees(plan.price.monthly), { exact: true })).toHaveCount(0)
  }
}

test.describe('landing page (signed out)', () => {
  test('has the header, hero, claims, features, trust blurbs, pricing, closing call to action and footer', async ({
    page,
  }) => {
    await page.goto('/')
    await expect(page).toHaveTitle(/Arogya CRM/)
    const header = page.getByRole('banner')
    await expect(header.getByRole('link', { name: 'Features' })).toHaveAttribute(
      'href',
      '/#features',
    )
    await expect(header.getByRole('link', { name: 'Add-ons' })).toHaveAttribute('href', '/add-ons')
    await expect(header.getByRole('link', { name: 'Sign In' })).toHaveAttribute(
      'href',
      '/api/login',
    )

    const hero = page.getByRole('region', { name: 'Turn every enquiry into a booked patient' })
    await expect(hero.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute(
      'href',
      '/api/login?signup=1',
    )
    await expect(hero.getByRole('button', { name: 'Schedule Demo' })).toBeVisible()
    for (const claim of [
      'Trusted by 1000+ professionals',
      '300-500% ROI in 6 months',
      '50% faster response',
      '40% higher conversion',
      '60% more productivity',
    ]) {
      await expect(hero.getByText(claim)).toBeVisible()
    }

    const features = page.getByRole('region', {
      name: 'One platform from first enquiry to final bill',
    })
    await expect(features.getByRole('listitem')).toHaveCount(6)
    await expect(features.getByRole('button', { name: /^About / })).toHaveCount(6)
    const trust = page.getByRole('region', { name: 'Why clinics trust Arogya CRM' })
    await expect(trust.getByRole('listitem')).toHaveCount(3)

    const pricing = page.getByRole('region', { name: 'Plans that grow with your practice' })
    await expect(pricing.getByRole('radio', { name: 'Monthly' })).toBeChecked()
    await expect(pricing.getByText('Save 20%')).toBeVisible()
    await expect(pricing.getByRole('article')).toHaveCount(5)

    const closing = page.getByRole('region', {
      name: 'Ready to turn more enquiries into patients?',
    })
    await expect(closing.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute(
      'href',
      '/api/login?signup=1',
    )
    await expect(closing.getByRole('button', { name: 'Schedule Demo' })).toBeVisible()

    const footer = page.getByRole('contentinfo')
    for (const list of ['Product', 'Support', 'Company'])
      await expect(footer.getByRole('heading', { name: list })).toBeVisible()
    await expect(footer.getByRole('link')).toHaveCount(0) // plain text lists (spec section 2)
  })

  test('the pricing toggle switches between monthly and annual figures', async ({ page }) => {
    await page.goto('/')
    await expectMonthlyFigures(page)
    await page.getByRole('radio', { name: 'Annual' }).check()
    await expectAnnualFigures(page)
    await page.getByRole('radio', { name: 'Monthly' }).check()
    await expectMonthlyFigures(page)
    // Arrow keys move between the options like any radio group.
    await page.getByRole('radio', { name: 'Monthly' }).press('ArrowRight')
    await expect(page.getByRole('radio', { name: 'Annual' })).toBeChecked()
  })

  test('help tooltips open after 700 ms on hover, at once on focus, and close on Escape', async ({
    page,
  }) => {
    await page.goto('/')
    const help = page.getByRole('button', { name: 'About Lead Management' })
    await help.hover()
    const tooltip = page.getByRole('tooltip')
    await expect(tooltip).toHaveCount(0)
    await expect(tooltip).toBeVisible({ timeout: 3000 })
    await expect(tooltip).toContainText('Leads are scored high, medium or low')
    await expect(help).toHaveAttribute('aria-describedby', (await tooltip.getAttribute('id')) ?? '')
    await page.mouse.move(0, 0)
    await expect(tooltip).toHaveCount(0)

    await page.getByRole('button', { name: 'About Patient Management' }).focus()
    await expect(page.getByRole('tooltip')).toContainText(
      'Search by name, email or any part of a mobile number',
    )
    await page.keyboard.press('Escape')
    await expect(page.getByRole('tooltip')).toHaveCount(0)
  })

  test('buttons go where the spec says', async ({ page }) => {
    await page.goto('/')
    await page.getByRole('link', { name: 'View Professional Add-ons & Services' }).click()
    await expect(page).toHaveURL(/\/add-ons$/)
    await expect(
      page.getByRole('heading', { level: 1, name: 'Professional Add-ons & Services' }),
    ).toBeVisible()
    await expect(page).toHaveTitle('Professional add-ons and services | Arogya CRM')

    await page.getByRole('link', { name: 'Back to Home' }).click()
    await expect(page).toHaveURL(/\/$/)
    await page.getByRole('banner').getByRole('link', { name: 'Features' }).click()
    await expect(page).toHaveURL(/\/#features$/)
    await expect(
      page.getByRole('heading', { name: 'One platform from first enquiry to final bill' }),
    ).toBeInViewport()

    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await page.goto('/')
    await page
      .getByRole('region', { name: 'Turn every enquiry into a booked patient' })
      .getByRole('link', { name: 'Start Free Trial' })
      .click()
    await expect(page).toHaveURL(/\/login\?mode=signup$/)
  })

  test('a visitor to / downloads no staff screens and does not ask who is signed in', async ({
    page,
  }) => {
    const requests: string[] = []
    page.on('request', (r) => requests.push(new URL(r.url()).pathname))
    await page.goto('/', { waitUntil: 'networkidle' })
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    const scripts = requests.filter((p) => p.endsWith('.js'))
    expect(scripts.some((p) => /\/landing-page-/.test(p))).toBe(true)
    for (const staff of [
      /staff-app-/,
      /patients-page-/,
      /home-page-/,
      /app-shell/,
      /\/app-[\w-]+\.js$/,
      /public-routes-/,
      /query-client-/,
      /toaster-/,
    ]) {
      expect(
        scripts.filter((p) => staff.test(p)),
        String(staff),
      ).toEqual([])
    }
    expect(requests).not.toContain('/api/auth/user')
  })
})

test.describe('/pricing (signed out)', () => {
  test('shows every figure of the plan table, the toggle, ROI claims and the add-on prices', async ({
    page,
  }) => {
    await page.goto('/pricing')
    await expect(page).toHaveTitle(/^Pricing/)
    await expect(
      page.getByRole('heading', { level: 1, name: 'Simple pricing in rupees' }),
    ).toBeVisible()
    await expect(page.getByText('Save 20%')).toBeVisible()
    await expect(page.getByRole('radio', { name: 'Monthly' })).toBeChecked()
    await expect(page.getByRole('article')).toHaveCount(5)
    await expect(planCard(page, 'Professional').getByText('Most Popular')).toBeVisible()
    await expect(planCard(page, 'Enterprise').getByText('Best Value')).toBeVisible()
    await expectMonthlyFigures(page)
    await page.getByRole('radio', { name: 'Yearly' }).check()
    await expectAnnualFigures(page)

    for (const plan of plans) {
      for (const feature of plan.features)
        await expect(planCard(page, plan.name).getByText(feature, { exact: true })).toBeVisible()
    }
    const limits = [
      [
        'Starter',
        [
          'Up to 5 users',
          'Up to 500 patients',
          '14-day free trial',
          'Email support (24hr response)',
          'Daily backup',
          '99% uptime',
        ],
      ],
      [
        'Professional',
        [
          'Up to 20 users',
          'Up to 2,000 patients',
          '30-day free trial',
          'Hourly backup',
          'Phone support (8hr response)',
          'Manual patient entry',
          'FAQ management',
        ],
      ],
      [
        'Enterprise',
        [
          'Up to 50 users',
          'Up to 10,000 patients',
          '60-day free trial',
          'Priority support (2hr response)',
          'Lead generation services',
          'Live monitoring dashboard',
          'Support ticket system',
          'Attachments up to 50MB',
        ],
      ],
      [
        'Hospital Enterprise',
        ['Unlimited users', 'Unlimited patients', '24/7 success manager', '50+ role permissions'],
      ],
      ['Custom Enterprise', ['Custom pricing']],
    ] as const
    for (const [name, items] of limits) {
      for (const item of items)
        await expect(planCard(page, name).getByText(item, { exact: true })).toBeVisible()
    }

    const roi = page.getByRole('region', { name: 'An investment that pays for itself' })
    for (const claim of [
      'Trusted by 1000+ professionals',
      '300-500% ROI in 6 months',
      '50% faster response',
      '40% higher conversion',
      '60% more productivity',
    ]) {
      await expect(roi.getByText(claim)).toBeVisible()
    }

    const addOns = page.getByRole('region', { name: 'Add-on services' })
    for (const category of addOnCategories) {
      for (const addOn of category.addOns) {
        const row = addOns.getByRole('listitem').filter({ hasText: addOn.name })
        await expect(row.getByText(formatRupees(addOn.price), { exact: true })).toBeVisible()
      }
    }

    const cta = page.getByRole('region', { name: 'Start your free trial today' })
    await expect(cta.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute(
      'href',
      '/api/login?signup=1',
    )
    for (const link of await page.getByRole('link', { name: 'Start Free Trial' }).all()) {
      await expect(link).toHaveAttribute('href', '/api/login?signup=1')
    }
    await cta.getByRole('button', { name: 'Schedule Demo' }).click()
    await expect(page.getByRole('dialog', { name: 'Schedule a Demo' })).toBeVisible()
  })

  test('a signed-in user sees the same page inside the staff app', async ({ page }) => {
    await login(page)
    await page.goto('/pricing')
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
    await expect(
      page.getByRole('heading', { level: 1, name: 'Simple pricing in rupees' }),
    ).toBeVisible()
    await expectMonthlyFigures(page)
    await page.goto('/add-ons')
    await expect(
      page.getByRole('heading', { level: 1, name: 'Professional Add-ons & Services' }),
    ).toBeVisible()
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toHaveCount(0)
  })
})

test.describe('/add-ons (signed out)', () => {
  test('lists the four categories with every add-on and its price', async ({ page }) => {
    await page.goto('/add-ons')
    await expect(
      page.getByRole('heading', { level: 1, name: 'Professional Add-ons & Services' }),
    ).toBeVisible()
    for (const category of addOnCategories) {
      const section = page.getByRole('region', { name: category.name, exact: true })
      await expect(section.getByRole('heading', { level: 2, name: category.name })).toBeVisible()
      await expect(section.getByRole('listitem')).toHaveCount(category.addOns.length)
      for (const addOn of category.addOns) {
        const item = section
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { name: addOn.name, exact: true }) })
        await expect(item.getByText(formatRupees(addOn.price), { exact: true })).toBeVisible()
        if (addOn.unit) await expect(item.getByText(addOn.unit)).toBeVisible()
        if (addOn.from) await expect(item).toContainText(`From ${formatRupees(addOn.price)}`)
      }
      await expect(section.getByRole('link', { name: /^Get Started/ })).toHaveAttribute(
        'href',
        '/api/login',
      )
    }
    await page
      .getByRole('region', { name: 'Technical', exact: true })
      .getByRole('link', { name: /^Get Started/ })
      .click()
    await expect(page).toHaveURL(/\/login$/)
    await page.goto('/add-ons')
    await page.getByRole('link', { name: 'Back to Home' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(
      page.getByRole('heading', { level: 1, name: 'Turn every enquiry into a booked patient' }),
    ).toBeVisible()
  })
})

test.describe('Schedule Demo', () => {
  test('rejects an empty name and a malformed mobile, then stores a good request', async ({
    page,
    browser,
  }) => {
    await page.goto('/')
    await page
      .getByRole('region', { name: 'Turn every enquiry into a booked patient' })
      .getByRole('button', { name: 'Schedule Demo' })
      .click()
    const dialog = page.getByRole('dialog', { name: 'Schedule a Demo' })
    await expect(dialog).toBeVisible()

    await dialog.getByRole('button', { name: 'Request Demo' }).click()
    await expect(dialog.getByText('Please enter your name')).toBeVisible()
    await expect(dialog.getByLabel('Your name')).toHaveAttribute('aria-invalid', 'true')
    await expect(dialog.getByText('Please enter your clinic or hospital name')).toBeVisible()

    const name = `Dr. Meera Joshi ${Date.now()}`
    await dialog.getByLabel('Your name').fill(name)
    await dialog.getByLabel('Clinic or hospital name').fill('Joshi Skin Clinic')
    await dialog.getByLabel('Mobile number').fill('12345')
    await dialog.getByRole('button', { name: 'Request Demo' }).click()
    await expect(
      dialog.getByText('Enter a valid 10-digit Indian mobile number, e.g. 98765 43210'),
    ).toBeVisible()
    await expect(dialog.getByText('Please enter your name')).toHaveCount(0)

    await dialog.getByLabel('Mobile number').fill('098220 12345')
    await dialog.getByLabel('Email (optional)').fill('meera@joshiskin.in')
    await dialog.getByLabel('City (optional)').fill('Nashik')
    await dialog.getByLabel('Preferred time for our call').selectOption('evening')
    await dialog.getByRole('button', { name: 'Request Demo' }).click()
    const done = page.getByRole('dialog', { name: 'Demo request received' })
    await expect(done.getByText(`Thank you, ${name}!`)).toBeVisible()
    await expect(done).toContainText('+91 98220 12345')
    await done.getByRole('button', { name: 'Close' }).first().click()
    await expect(done).toHaveCount(0)

    // A super admin sees it, with the mobile normalised to +91.
    const admin = await browser.newContext()
    const adminPage = await admin.newPage()
    await login(adminPage, 'superadmin@arogya.demo')
    const res = await adminPage.request.get('/api/admin/demo-requests')
    expect(res.status()).toBe(200)
    const stored = ((await res.json()) as { name: string }[]).find((r) => r.name === name)
    expect(stored).toMatchObject({
      organization: 'Joshi Skin Clinic',
      mobile: '+919822012345',
      email: 'meera@joshiskin.in',
      city: 'Nashik',
      preferredTime: 'evening',
      source: 'landing',
    })
    await admin.close()
  })
})

test.describe('search engines', () => {
  test('each page has its own title, description, canonical link and Open Graph tags', async ({
    page,
  }) => {
    for (const path of ['/', '/pricing', '/add-ons']) {
      await page.goto(path)
      const description = await page.locator('meta[name="description"]').getAttribute('content')
      expect(description?.length).toBeGreaterThan(80)
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        new RegExp(`${path === '/' ? '/' : path}$`),
      )
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
        'content',
        await page.title(),
      )
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        'content',
        /\/og-image\.png$/,
      )
    }
    const robots = await page.request.get('/robots.txt')
    expect(robots.headers()['content-type']).toMatch(/^text\/plain/)
    expect(await robots.text()).toContain('Sitemap:')
    const sitemap = await page.request.get('/sitemap.xml')
    expect(await sitemap.text()).toContain('/add-ons</loc>')
    const og = await page.request.get('/og-image.png')
    expect(og.headers()['content-type']).toBe('image/png')
  })
})

test.describe('screenshots', () => {
  for (const width of [360, 1280]) {
    test(`/, /pricing and /add-ons fit a ${width} px screen`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 })
      for (const path of ['/', '/pricing', '/add-ons']) {
        await page.goto(path, { waitUntil: 'networkidle' })
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        )
        expect(overflow, `${path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0)
        const slug = path === '/' ? 'home' : path.slice(1)
        await page.screenshot({ path: `${SHOTS}/${slug}-${width}.png`, fullPage: true })
      }
    })
  }
})
