import type { Page } from '@playwright/test'
import {
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  login,
  readNewestEmail,
  test,
  textLayout,
} from './fixtures'

// Issue 27, Admin for a hospital admin: invite a receptionist, who accepts the emailed link in
// a fresh browser and is signed in; the plan's user limit on invite and on activate.

const ADMIN_A = 'admin@sanjeevani.demo'
const ADMIN_B = 'admin@smiledental.demo'

function api(page: Page) {
  const origin = new URL(page.url()).origin
  return {
    team: async () =>
      (await page.request.get('/api/team')).json() as Promise<{
        usage: { maxUsers: number; activeMembers: number; pendingInvitations: number }
        invitations: { id: string; email: string }[]
      }>,
    invite: (email: string, name: string) =>
      page.request.post('/api/team/invitations', {
        data: { email, name, role: 'viewer' },
        headers: { origin },
      }),
    revoke: (id: string) =>
      page.request.delete(`/api/team/invitations/${id}`, { headers: { origin } }),
  }
}

test('an admin invites a receptionist, who accepts the emailed link and is signed in', async ({
  page,
  browser,
}) => {
  const email = `priya.nair.${Date.now() % 1_000_000}@example.in`
  await login(page, ADMIN_A)
  await page.goto('/admin')
  await expect(page.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible()
  await expect(page.getByRole('table', { name: 'Team members' })).toBeVisible()
  await expect(page.getByText('Dr. Kavita Deshmukh')).toBeVisible()

  await page.getByRole('button', { name: 'Invite member' }).click()
  const dialog = page.getByRole('dialog', { name: 'Invite member' })
  await dialog.getByRole('button', { name: 'Send invitation' }).click()
  await expect(dialog.getByText('Name is required')).toBeVisible()
  await dialog.getByLabel('Full name').fill('Priya Nair')
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Role').selectOption('receptionist')
  await dialog.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible()
  const row = page.getByTestId('invitation-row').filter({ hasText: email })
  await expect(row).toContainText('Receptionist')
  await expectNoAxeViolations(page, 'Admin (team)')
  await page.setViewportSize({ width: 360, height: 740 })
  await expect(page.getByRole('button', { name: 'Invite member' })).toBeVisible()
  await expectNoSidewaysScroll(page, 'Admin (team) at 360 px')

  const link = /\/invite#\S+/.exec(await readNewestEmail(email))?.[0]
  expect(link, 'the invitation link').toBeTruthy()
  const context = await browser.newContext()
  const invitee = await context.newPage()
  await invitee.goto(link!)
  await expect(invitee.getByRole('heading', { name: 'Accept your invitation' })).toBeVisible()
  await expect(invitee.getByText(/Priya Nair.*Sanjeevani Multispeciality Hospital/)).toBeVisible()
  await expectNoAxeViolations(invitee, 'Accept invitation')
  await invitee.getByLabel('Choose a password').fill('Shubh-Aarambh-2026')
  await invitee.getByLabel('Confirm password').fill('Shubh-Aarambh-2026')
  await invitee.getByRole('button', { name: /^Join / }).click()
  await expect(invitee.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
  // A receptionist is not an admin: the spec's view, and the server's 403.
  await invitee.goto('/admin')
  await expect(invitee.getByText('Admin Access Required')).toBeVisible()
  expect((await invitee.request.get('/api/team')).status()).toBe(403)
  await context.close()

  // The link worked once; the admin now sees Priya as an active member.
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.reload()
  await expect(page.getByTestId('member-row').filter({ hasText: 'Priya Nair' })).toContainText(
    'Active',
  )
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toHaveCount(0)
})

test('the plan’s user limit stops invites and activations with a clear message', async ({
  page,
}) => {
  await login(page, ADMIN_B)
  await page.goto('/admin')
  const team = api(page)
  const viewer = page.getByTestId('member-row').filter({ hasText: 'Girish Nayak' })
  // Suspend a member (a seat frees up), then fill every seat with invitations.
  await viewer.getByRole('button', { name: 'Suspend Girish Nayak' }).click()
  await expect(page.getByText('User status updated successfully')).toBeVisible()
  await expect(viewer.getByRole('button', { name: 'Activate Girish Nayak' })).toBeVisible()
  const { usage } = await team.team()
  const free = usage.maxUsers - usage.activeMembers - usage.pendingInvitations
  const invited: string[] = []
  for (let i = 0; i < free; i++) {
    const res = await team.invite(`seat.${i}.${Date.now() % 100000}@example.in`, `Seat Holder ${i}`)
    expect(res.status()).toBe(201)
    invited.push(((await res.json()) as { invitation: { id: string } }).invitation.id)
  }
  const over = await team.invite('one.too.many@example.in', 'One Too Many')
  expect(over.status()).toBe(409)
  expect(((await over.json()) as { message: string }).message).toContain(
    `up to ${usage.maxUsers} users`,
  )

  await page.reload()
  await expect(page.getByText(`Your plan allows up to ${usage.maxUsers} users`)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Invite member' })).toBeDisabled()
  await viewer.getByRole('button', { name: 'Activate Girish Nayak' }).click()
  await expect(page.getByText('Failed to update user status')).toBeVisible()
  await expectNoAxeViolations(page, 'Admin (team) at the user limit')

  // Revoking an invitation frees a seat: the member can be activated again.
  for (const id of invited) expect((await team.revoke(id)).status()).toBe(204)
  await page.reload()
  await viewer.getByRole('button', { name: 'Activate Girish Nayak' }).click()
  await expect(viewer.getByRole('button', { name: 'Suspend Girish Nayak' })).toBeVisible()
})

test('at 390 px the invitations and members read in lines, not letter by letter', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await login(page, ADMIN_B)
  await page.goto('/admin')
  const rows = page.getByTestId('invitation-row')
  await expect(rows.first()).toBeVisible()
  // Issue 40 item 8: each invitation's email and its "Invited … valid until …" line kept a
  // sliver of the row and wrapped a letter at a time.
  for (const row of await rows.all()) {
    for (const line of await row.locator('p').all()) {
      const layout = await textLayout(line)
      expect(layout.lines, await line.innerText()).toBeLessThanOrEqual(3)
      expect(layout.inside, await line.innerText()).toBe(true)
    }
  }
  await expectNoSidewaysScroll(page, '/admin at 390 px')
})
