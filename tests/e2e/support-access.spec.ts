import {
  createPatientViaApi,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  randomMobile,
  SUPER_ADMIN,
  test,
  uniqueName,
} from './fixtures'

const HOSPITAL = 'Sanjeevani Multispeciality Hospital, Pune'

// Issue 27, support access granted by the hospital (docs/decisions/032): the hospital admin
// grants it on Admin, the super admin enters from the Super Admin Dashboard, sees the banner,
// adds a patient and exits; the hospital admin then sees that action under the grant.
test('the hospital grants support access, the super admin enters, acts and exits', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const hospitalSide = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const admin = await hospitalSide.newPage()
  await login(admin, 'admin@sanjeevani.demo')
  await admin.goto('/admin')
  const section = admin.getByRole('region', { name: 'Support access' })
  await section.getByRole('button', { name: 'Grant access' }).click()
  await expect(section.getByText('Say in a few words why support needs access')).toBeVisible()
  await section.getByLabel('For').selectOption('4')
  await section.getByLabel('Reason').fill('Help us set up the WhatsApp reminder templates')
  await section.getByRole('button', { name: 'Grant access' }).click()
  await expect(admin.getByText('Support access granted')).toBeVisible()
  await expect(section.getByText('Help us set up the WhatsApp reminder templates')).toBeVisible()
  await expect(section.getByText('Active', { exact: true }).first()).toBeVisible()
  await expectNoAxeViolations(admin, 'Admin with Support access')

  // The super admin enters from the hospital's card.
  const platformSide = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const sa = await platformSide.newPage()
  await login(sa, SUPER_ADMIN)
  await expect(sa).toHaveURL(/\/super-admin$/)
  await sa.getByRole('searchbox', { name: 'Search hospitals' }).fill('sanjeevani')
  await sa.getByRole('button', { name: `Enter ${HOSPITAL}` }).click()
  await expect(sa).toHaveURL(/\/$/)
  const banner = sa.getByRole('region', { name: 'Support access' })
  await expect(banner).toContainText(`You are inside ${HOSPITAL} as Arogya support`)
  await expect(banner).toContainText(/3 h \d\d min left/)
  // Issue 39: a grant acts as the support role, and the screens hide what it may not do.
  await expect(banner).toContainText('support role')
  await expectNoAxeViolations(sa, 'the dashboard inside a hospital, with the banner')

  // Acting inside: a patient added as support, then the list shows it.
  const name = uniqueName('Kavita', 'Support')
  await createPatientViaApi(sa, { name, phone: randomMobile(), gender: 'female' })
  await sa.goto('/patients')
  await expect(sa.getByText(name).first()).toBeVisible()
  await sa.setViewportSize({ width: 360, height: 740 })
  await expectNoSidewaysScroll(sa, 'patients with the support banner at 360 px')
  await sa.setViewportSize({ width: 1280, height: 800 })

  await sa.goto('/settings')
  await sa.getByRole('tab', { name: 'Security' }).click()
  await expect(sa.getByLabel('Require two-factor for every member')).toBeDisabled()
  await sa.getByRole('tab', { name: 'Data' }).click()
  await expect(sa.getByText(/are for your hospital’s admin/)).toBeVisible()
  await expect(sa.getByRole('button', { name: /Delete All Data/i })).toHaveCount(0)
  await sa.getByRole('tab', { name: 'Integrations' }).click()
  await expect(
    sa.getByText("Only your hospital's admin can change its integrations."),
  ).toBeVisible()

  await banner.getByRole('button', { name: 'Exit' }).click()
  await expect(sa).toHaveURL(/\/super-admin$/)
  await expect(banner).toBeHidden()

  // The hospital admin sees what support did.
  await admin.reload()
  await expect(section.getByText(`Added patient ${name}`)).toBeVisible()
  await expect(section.getByText(/^Entered Sanjeevani/)).toBeVisible()

  // Widening, explicitly: full admin, with a warning; the grant shows it.
  await section.getByLabel('For').selectOption('8')
  await section.getByLabel('Reason').fill('Move our team to new roles')
  await section.getByRole('radio', { name: /Full admin/ }).check()
  await expect(section.getByRole('alert')).toContainText(
    'Full admin lets Arogya support do everything your admins can',
  )
  await section.getByRole('button', { name: 'Grant full admin access' }).click()
  await expect(admin.getByText('Support access granted')).toBeVisible()
  await expect(
    section.getByRole('listitem').filter({ hasText: 'Move our team to new roles' }),
  ).toContainText('Full admin')
  await expectNoAxeViolations(admin, 'Admin with a full admin grant')
  await sa.goto('/super-admin')
  await sa.getByRole('searchbox', { name: 'Search hospitals' }).fill('sanjeevani')
  await sa.getByRole('button', { name: `Enter ${HOSPITAL}` }).click()
  await expect(banner).toContainText('full admin')
  await banner.getByRole('button', { name: 'Exit' }).click()
  await expect(sa).toHaveURL(/\/super-admin$/)

  // The super admin's own /admin: the spec's screen.
  await sa.goto('/admin')
  const main = sa.getByRole('main')
  await expect(main.getByText('Super Admin', { exact: true })).toBeVisible()
  for (const label of ['Total Users', 'Active Users', 'New Today', 'Monthly Revenue'])
    await expect(main.getByText(label, { exact: true })).toBeVisible()
  await expect(sa.getByRole('table', { name: 'Users' })).toBeVisible()
  await expectNoAxeViolations(sa, 'the super admin’s Admin page')
  // Issue 40 item 13: its links lead to the super admin's own dashboard, never a staff screen.
  await expect(sa.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
    'href',
    '/super-admin',
  )
  await expect(sa.getByRole('link', { name: 'Open the hospitals' })).toHaveAttribute(
    'href',
    '/super-admin',
  )
  await hospitalSide.close()
  await platformSide.close()
})
