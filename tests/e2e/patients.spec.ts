import { expect, login, signOut, test } from './fixtures'

test('sign in, search patients, add one by hand, view details, sign out', async ({ page }) => {
  await login(page)
  await page.getByRole('link', { name: 'Patients', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Patients', exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Patients', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await expect(page.getByTestId('patient-card').first()).toBeVisible()

  // Search finds nothing for gibberish and shows the search empty state.
  const search = page.getByPlaceholder('Search patients by name, email, or phone...')
  await search.fill('zzqxnotapatient')
  await expect(page.getByText('No patients found')).toBeVisible()
  await expect(page.getByText('Try adjusting your search')).toBeVisible()

  // Add a patient by hand; required-field validation first.
  await page.getByRole('link', { name: 'Manual Entry' }).click()
  await page.getByRole('button', { name: 'Add Patient to System' }).click()
  await expect(
    page.getByText('Please fill in all required fields (Full Name, Phone).'),
  ).toBeVisible()
  await page.getByLabel('Full Name').fill('Ishaan Kulkarni-Test')
  await page.getByLabel('Phone').fill('098765 43210')
  await page.getByLabel('Email').fill('ishaan.k@example.in')
  await page.getByLabel('Date of Birth').fill('15/04/1990')
  await page.getByLabel('Gender').selectOption('male')
  await page.getByLabel('Address').fill('12, FC Road, Shivajinagar, Pune 411005')
  await page.getByLabel('Medical History').fill('Hypertension')
  await page.getByLabel('Allergies').fill('Penicillin')
  await page.getByLabel('Insurance Provider').fill('Star Health')
  await page.getByRole('button', { name: 'Add Patient to System' }).click()
  await expect(page.getByText('Patient Added Successfully!')).toBeVisible()
  await expect(page.getByLabel('Full Name')).toHaveValue('')

  // Find them by a typed phone fragment and open the details.
  await page.getByRole('link', { name: 'Patients', exact: true }).click()
  await page.getByPlaceholder('Search patients by name, email, or phone...').fill('98765 43210')
  const card = page.getByTestId('patient-card').filter({ hasText: 'Ishaan Kulkarni-Test' })
  await expect(card).toBeVisible()
  await expect(card.getByText('Male')).toBeVisible()
  await card.getByRole('button', { name: /View Details/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Patient Details: Ishaan Kulkarni-Test' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText('+91 98765 43210')).toBeVisible()
  await expect(dialog.getByText('Apr 15, 1990')).toBeVisible()
  // When it was added, in the hospital's time zone (Asia/Kolkata), 'MMM dd, yyyy, h:mm a'.
  const today = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Asia/Kolkata',
    month: 'short',
    day: '2-digit',
    year: 'numeric',
  }).format(new Date())
  await expect(
    dialog.getByText(new RegExp(`^${today}, \\d{1,2}:\\d{2} (AM|PM)$`)).first(),
  ).toBeVisible()
  await dialog.getByRole('button', { name: 'Close' }).click()

  // Edit works.
  await card.getByRole('button', { name: /^Edit/ }).click()
  const edit = page.getByRole('dialog', { name: /Edit Patient/ })
  await edit.getByLabel('Allergies').fill('Penicillin, Sulfa drugs')
  await edit.getByRole('button', { name: 'Save Changes' }).click()
  await expect(edit).toBeHidden()
  await expect(card.getByText('Penicillin, Sulfa drugs')).toBeVisible()

  // Sign out returns to the public site.
  await signOut(page)
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0)
  const me = await page.request.get('/api/auth/user')
  expect(me.status()).toBe(401)
})

test('an unknown path shows the 404 page, signed out and signed in', async ({ page }) => {
  await page.goto('/no-such-page')
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible()
  await login(page, 'doctor@smiledental.demo')
  await page.goto('/definitely/not/here')
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible()
})

test('a wrong password shows a clear message', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('Email').fill('nurse@sanjeevani.demo')
  await page.getByLabel('Password').fill('not-the-password')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('alert')).toContainText('Invalid email or password')
})
