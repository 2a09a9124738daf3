import { expect, type Page, test as base } from '@playwright/test'

export const DEMO_PASSWORD = 'arogya-demo-2026'

/** Signs in through the real sign-in page. */
export async function login(
  page: Page,
  email = 'admin@sanjeevani.demo',
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto('/api/login')
  await expect(page).toHaveURL(/\/login$/)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
}

export const test = base
export { expect }
