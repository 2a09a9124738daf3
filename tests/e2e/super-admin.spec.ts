import {
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  readNewestEmail,
  SUPER_ADMIN,
  test,
  textLayout,
} from './fixtures'

const SHOTS = 'test-results/e2e/screenshots'

// Issue 27: the Super Admin Dashboard. The super admin (two-factor) adds a hospital, moves it
// from its trial to active, marks one of its onboarding tasks complete and finds both in the
// platform's audit trail; axe and 360 px on the way.
test('the super admin adds a hospital, activates it and completes an onboarding task', async ({
  browser,
}) => {
  // About 35 s on a quiet machine; the limit leaves room for a loaded one.
  test.setTimeout(120_000)
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await login(page, SUPER_ADMIN)
  await expect(page).toHaveURL(/\/super-admin$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Super Admin Dashboard' })).toBeVisible()
  const figures = page.getByRole('region', { name: 'Platform figures' })
  for (const label of ['Total Hospitals', 'Active Users', 'Monthly Revenue', 'Pending Tasks'])
    await expect(figures.getByText(label)).toBeVisible()
  // The two demo hospitals' 16 active members at ₹2,400 a month; the others are not active.
  await expect(figures.getByText('₹38,400.00')).toBeVisible()
  // Each figure reads on one line inside its card ("₹24,000.0|0" wrapped; issue 40 item 8).
  expect(await textLayout(figures.getByText('₹38,400.00', { exact: true }))).toEqual({
    lines: 1,
    inside: true,
  })
  await expect(
    page.getByRole('list', { name: 'Hospitals' }).getByText('Shree Diagnostics, Ahmedabad'),
  ).toBeVisible()

  // Add Hospital: the spec's messages, then a hospital on its free trial.
  await page.getByRole('button', { name: 'Add Hospital' }).click()
  const add = page.getByRole('dialog', { name: 'Add Hospital' })
  await add.getByRole('button', { name: 'Add Hospital' }).click()
  await expect(add.getByText('Hospital name is required')).toBeVisible()
  await expect(add.getByText('Valid email required')).toBeVisible()
  await expectNoAxeViolations(page, 'the Add Hospital dialog')
  await add.getByLabel('Hospital name').fill('Lotus Children’s Clinic, Nashik')
  await add.getByLabel(/^Email/).fill('frontdesk@lotusclinic.example')
  await add.getByLabel('Phone').fill('0253 257 1234')
  await add.getByLabel('Type').selectOption('clinic')
  await add.getByLabel('Bed capacity').fill('10')
  await add.getByLabel('Address').fill('College Road, Nashik, Maharashtra 422005')
  await add.getByRole('button', { name: 'Add Hospital' }).click()
  await expect(page.getByText('Hospital created successfully')).toBeVisible()
  // Its first admin is invited by email (the hospital's email, as no other was given).
  await expect(page.getByText(/invitation went to frontdesk@lotusclinic\.example/)).toBeVisible()
  await expect(add).toBeHidden()

  await page.getByRole('searchbox', { name: 'Search hospitals' }).fill('lotusclinic')
  const cards = page.getByRole('list', { name: 'Hospitals' }).getByRole('listitem')
  await expect(cards).toHaveCount(1)
  await expect(cards.first().getByText('Trial', { exact: true })).toBeVisible()
  await expect(cards.first().getByText('0/5')).toBeVisible()

  await page.getByRole('button', { name: 'View Lotus Children’s Clinic, Nashik' }).click()
  const view = page.getByRole('dialog', { name: 'Lotus Children’s Clinic, Nashik' })
  await expect(view.getByText('0 of 6 tasks done')).toBeVisible()
  await expect(view.getByText('+91 253 257 1234')).toBeVisible()
  await view.getByRole('button', { name: 'Close' }).click()

  // Edit: trial → active.
  await page.getByRole('button', { name: 'Edit Lotus Children’s Clinic, Nashik' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit Lotus Children’s Clinic, Nashik' })
  await expect(edit.getByLabel('Subscription status').getByRole('option')).toHaveText([
    'Trial',
    'Active',
  ])
  await edit.getByLabel('Subscription status').selectOption('active')
  await edit.getByLabel('Max users').fill('8')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Hospital updated successfully')).toBeVisible()
  await expect(cards.first().getByText('Active', { exact: true })).toBeVisible()
  await expect(cards.first().getByText('0/8')).toBeVisible()

  // Onboarding: Mark Complete on the new hospital's Meta task.
  await page.getByRole('tab', { name: 'Onboarding' }).click()
  const markMeta = page.getByRole('button', {
    name: 'Mark Complete: Connect the Meta page, Lotus Children’s Clinic, Nashik',
  })
  await markMeta.click()
  await expect(page.getByText('Task marked as completed')).toBeVisible()
  await expect(markMeta).toHaveCount(0)

  // Activities: both changes, newest first, filtered by the hospital.
  await page.getByRole('tab', { name: 'Activities' }).click()
  await page
    .getByRole('combobox', { name: 'Hospital', exact: true })
    .selectOption({ label: 'Lotus Children’s Clinic, Nashik' })
  const trail = page.getByRole('list', { name: 'Activities' }).getByRole('listitem')
  await expect(trail).toHaveCount(3)
  await expect(trail.nth(0)).toContainText('Onboarding task completed')
  await expect(trail.nth(1)).toContainText('Trial → Active')
  await expect(trail.nth(2)).toContainText('Hospital created')

  // Users: role badges and the Edit dialog.
  await page.getByRole('tab', { name: 'Users' }).click()
  await page.getByRole('searchbox', { name: 'Search users' }).fill('nurse@smiledental')
  await page.getByRole('button', { name: 'Edit Shwetha Gowda (nurse@smiledental.demo)' }).click()
  const editUser = page.getByRole('dialog', { name: 'Edit Shwetha Gowda' })
  await editUser.getByLabel('Role').selectOption('receptionist')
  await editUser.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('User updated successfully')).toBeVisible()
  const users = page.getByRole('list', { name: 'Users' }).getByRole('listitem')
  await expect(users).toHaveCount(1)
  await expect(users.getByText('Receptionist')).toBeVisible()

  await page.setViewportSize({ width: 360, height: 740 })
  await page.getByRole('tab', { name: 'Hospitals' }).click()
  await expect(cards.first()).toBeVisible()
  await expectNoSidewaysScroll(page, 'the Super Admin Dashboard at 360 px')
  await expectNoAxeViolations(page, 'the Super Admin Dashboard at 360 px', { strict: true })
  await page.screenshot({ path: `${SHOTS}/super-admin-360.png`, fullPage: true })
  await context.close()

  // The new hospital's first admin accepts the emailed invitation and runs its team.
  const link = /\/invite#\S+/.exec(await readNewestEmail('frontdesk@lotusclinic.example'))?.[0]
  expect(link, 'the invitation link').toBeTruthy()
  const invitee = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const adminPage = await invitee.newPage()
  await adminPage.goto(link!)
  await expect(adminPage.getByRole('heading', { name: 'Accept your invitation' })).toBeVisible()
  const join = adminPage.getByRole('button', { name: 'Join Lotus Children’s Clinic, Nashik' })
  await expect(join).toBeVisible()
  await adminPage.getByLabel('Choose a password').fill('Lotus-Clinic-Nashik-2026')
  await adminPage.getByLabel('Confirm password').fill('Lotus-Clinic-Nashik-2026')
  await join.click()
  await expect(adminPage.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
  await adminPage.goto('/admin')
  const me = adminPage
    .getByTestId('member-row')
    .filter({ hasText: 'frontdesk@lotusclinic.example' })
  await expect(me).toContainText('Admin')
  await expect(me).toContainText('Active')
  await invitee.close()
})
