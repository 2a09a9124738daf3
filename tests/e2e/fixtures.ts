import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AxeBuilder } from '@axe-core/playwright'
import { expect, type Locator, type Page, test as base } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'

export const DEMO_PASSWORD = 'arogya-demo-2026'
export const SUPER_ADMIN = 'superadmin@arogya.demo'
export const ENROLMENT_HEADING = 'Set up two-factor authentication'

/**
 * The e2e server's DATA_DIR (playwright.config.ts). It is deleted when the server starts, so
 * whatever is kept here lives exactly as long as the run's database.
 */
export const E2E_DATA_DIR = fileURLToPath(
  new URL(`../../${process.env.E2E_DATA_DIR ?? '.e2e-data'}/`, import.meta.url),
)

/** The super admin's TOTP secret once enrolled this run, and the last time step used. */
interface TotpState {
  secret: string
  lastCounter: number
  /** Backup codes not used yet. */
  backupCodes: string[]
}
const TOTP_FILE = join(E2E_DATA_DIR, 'e2e-super-admin-totp.json')
const PERIOD = 30
let totpState: TotpState | null = null

function readTotpState(): TotpState | null {
  if (totpState) return totpState
  try {
    totpState = JSON.parse(readFileSync(TOTP_FILE, 'utf8')) as TotpState
  } catch {
    totpState = null
  }
  return totpState
}

function saveTotpState(state: TotpState): void {
  totpState = state
  mkdirSync(E2E_DATA_DIR, { recursive: true })
  writeFileSync(TOTP_FILE, JSON.stringify(state))
}

/** Remembers what an enrolment showed, for the later sign-ins of this run. */
export function rememberEnrolment(secret: string, backupCodes: string[]): void {
  saveTotpState({ secret: secret.replace(/\s/g, ''), lastCounter: -1, backupCodes })
}

/** A backup code of the enrolled super admin that has not been used (and now counts as used). */
export function takeBackupCode(): string {
  const state = readTotpState()
  const code = state?.backupCodes[0]
  if (!state || !code) throw new Error(`No unused backup code of ${SUPER_ADMIN} was recorded`)
  saveTotpState({ ...state, backupCodes: state.backupCodes.slice(1) })
  return code
}

function totpFor(secret: string, counter: number): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: PERIOD })
  return totp.generate({ timestamp: counter * PERIOD * 1000 })
}

/** Every code the server accepts right now (it allows one time step either side). */
export function acceptedTotpCodes(secret: string): string[] {
  const now = Math.floor(Date.now() / 1000 / PERIOD)
  return [now - 1, now, now + 1].map((c) => totpFor(secret, c))
}

/**
 * A fresh code for the enrolled super admin. A code is never used twice (a server may refuse
 * a replay): the next time step's code is accepted too, and beyond that we wait.
 */
export async function nextTotpCode(): Promise<string> {
  const state = readTotpState()
  if (!state) throw new Error(`${SUPER_ADMIN} asks for a code, but no enrolment was recorded`)
  let now = Math.floor(Date.now() / 1000 / PERIOD)
  const counter = Math.max(now, state.lastCounter + 1)
  while (counter > now + 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    now = Math.floor(Date.now() / 1000 / PERIOD)
  }
  saveTotpState({ ...state, lastCounter: counter })
  return totpFor(state.secret, counter)
}

/** The backup codes the enrolment screen shows. */
export async function readShownBackupCodes(page: Page): Promise<string[]> {
  const items = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem')
  return (await items.allTextContents()).map((c) => c.trim())
}

/** The secret key the enrolment screen shows, without its spaces. */
export async function readShownSecret(page: Page): Promise<string> {
  const text = await page.getByTestId('totp-secret').textContent()
  const secret = (text ?? '').replace(/\s/g, '')
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/)
  return secret
}

/** Completes the enrolment screen: password, secret, first code. */
export async function enrolTwoFactor(page: Page, password = DEMO_PASSWORD): Promise<void> {
  await expect(page.getByRole('heading', { name: ENROLMENT_HEADING })).toBeVisible()
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Continue' }).click()
  rememberEnrolment(await readShownSecret(page), await readShownBackupCodes(page))
  await page.getByLabel('6-digit code from your app').fill(await nextTotpCode())
  await page.getByRole('button', { name: 'Turn on two-factor' }).click()
}

/**
 * Signs in through the real sign-in page. The super admin must use two-factor: the first
 * sign-in of a run enrols (remembering the secret), later ones enter a fresh code.
 */
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
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  const code = page.getByLabel('Authentication code')
  const enrol = page.getByRole('heading', { name: ENROLMENT_HEADING })
  await expect(nav.or(code).or(enrol)).toBeVisible()
  if (await code.isVisible()) {
    await code.fill(await nextTotpCode())
    await page.getByRole('button', { name: 'Verify' }).click()
  } else if (await enrol.isVisible()) {
    await enrolTwoFactor(page, password)
  }
  await expect(nav).toBeVisible()
}

/** Opens the header's account menu (name, role, hospital, Settings, Sign Out). */
export async function openAccountMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click()
  await expect(page.getByRole('menu')).toBeVisible()
}

/** Signs out the way a user does: account menu, then its Sign Out link (to /api/logout). */
export async function signOut(page: Page): Promise<void> {
  await openAccountMenu(page)
  await page.getByRole('menuitem', { name: 'Sign Out' }).click()
}

/**
 * The newest email the e2e server's sandbox mailer wrote for an address (one text file per
 * message in DATA_DIR/outbox, named so the newest sorts last), waiting for it to arrive.
 */
export async function readNewestEmail(to: string): Promise<string> {
  const dir = join(E2E_DATA_DIR, 'outbox')
  let found = ''
  await expect
    .poll(
      () => {
        let names: string[]
        try {
          names = readdirSync(dir).filter((n) => n.endsWith('.txt'))
        } catch {
          return '' // no email yet
        }
        const mine = names
          .sort()
          .map((n) => readFileSync(join(dir, n), 'utf8'))
          .filter((text) => text.split('\n', 1)[0]?.trim().toLowerCase() === `to: ${to}`)
        found = mine.at(-1) ?? ''
        return found
      },
      { message: `an email to ${to} in ${dir}` },
    )
    .not.toBe('')
  return found
}

/** The path and query of the email's activation link (/api/auth/verify-email?...). */
export function verifyEmailPath(email: string): string {
  const match = /(?:https?:\/\/[^\s/]+)?(\/api\/auth\/verify-email\?\S+)/.exec(email)
  if (!match?.[1]) throw new Error(`No /api/auth/verify-email link in:\n${email}`)
  return match[1]
}

export const test = base
export { expect }

/**
 * Once the page's finite animations and transitions have ended: a toast sliding in or a tour
 * step fading in is half transparent for 300 ms, and axe would measure the colour contrast of
 * that in-between frame (on a slow machine it does). Endless ones (a spinner, a skeleton's
 * pulse) are not waited for.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity,
      ),
  )
}

function described(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']) {
  return violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(' | ')})`,
  )
}

/**
 * An axe check of the settled page. Toasts leave on a timer of their own: one can start fading
 * between the wait and the scan, and axe then measures a half-transparent frame. So they are
 * left out here and scanned on their own, settled (`expectToastAccessible`).
 */
export async function axe(page: Page): Promise<AxeBuilder> {
  await settled(page)
  return new AxeBuilder({ page }).exclude('[data-sonner-toaster]')
}

/** axe on the visible toast alone, once it has finished coming in. */
export async function expectToastAccessible(page: Page): Promise<void> {
  await expect(page.locator('[data-sonner-toast][data-mounted="true"]').first()).toBeVisible()
  await settled(page)
  const result = await new AxeBuilder({ page }).include('[data-sonner-toaster]').analyze()
  expect(described(result.violations), 'axe on the toast').toEqual([])
}

/** WCAG 2.2 AA and axe's best practices, for the screens that promise both. */
const STRICT_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/** axe finds nothing on the settled page; `strict` adds the best-practice rules. */
export async function expectNoAxeViolations(
  page: Page,
  what: string,
  { strict = false }: { strict?: boolean } = {},
): Promise<void> {
  const builder = await axe(page)
  const result = await (strict ? builder.withTags(STRICT_TAGS) : builder).analyze()
  expect(described(result.violations), `axe on ${what}`).toEqual([])
}

/**
 * How an element's text lies: on how many lines, and whether it stays inside its parent (a
 * figure wrapping mid-number, or an email broken letter by letter, shows here).
 */
export function textLayout(locator: Locator): Promise<{ lines: number; inside: boolean }> {
  return locator.evaluate((el) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)))
    const parent = el.parentElement?.getBoundingClientRect()
    return {
      lines: tops.size,
      inside: !parent || range.getBoundingClientRect().right <= parent.right + 0.5,
    }
  })
}

/**
 * The page does not scroll sideways (its content fits the window's width). Polled for a few
 * seconds: right after a resize, charts and other measured layouts take some frames to fit
 * (seen on a loaded CI core); an overflow that stays is still a failure.
 */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: `${what} scrolls sideways`,
      timeout: 3_000,
    })
    .toBeLessThanOrEqual(0)
}

/** A patient added through the API as the signed-in user (POST /api/patients/manual). */
export async function createPatientViaApi(
  page: Page,
  data: Record<string, unknown>,
): Promise<{ id: string; name: string; patientNumber: string; phone: string }> {
  const origin = new URL(page.url()).origin
  const response = await page.request.post('/api/patients/manual', {
    data,
    headers: { origin },
  })
  expect(response.status(), await response.text()).toBe(201)
  return (await response.json()) as {
    id: string
    name: string
    patientNumber: string
    phone: string
  }
}

/** A valid Indian mobile number no other test uses ('9' and 9 random digits). */
export function randomMobile(): string {
  return `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`
}

/**
 * A person's name no earlier run (or retry) of a test used: the surname gets random letters,
 * so searches that expect exactly one match stay true on a reused e2e database.
 */
export function uniqueName(first: string, surname: string): string {
  const letters = Array.from({ length: 5 }, () =>
    String.fromCharCode(97 + Math.floor(Math.random() * 26)),
  ).join('')
  return `${first} ${surname}${letters}`
}

/** A lead added through the API as the signed-in user (POST /api/leads). */
export async function createLeadViaApi(
  page: Page,
  data: Record<string, unknown>,
): Promise<{ id: string; name: string; phone: string; status: string }> {
  const origin = new URL(page.url()).origin
  const response = await page.request.post('/api/leads', { data, headers: { origin } })
  expect(response.status(), await response.text()).toBe(201)
  return (
    (await response.json()) as { lead: { id: string; name: string; phone: string; status: string } }
  ).lead
}

/** Marks the leads tour as dismissed before any page loads, so its welcome card stays away. */
export async function skipLeadsTour(page: Page): Promise<void> {
  await page.addInitScript(() => {
    localStorage.setItem('arogya.tutorial.dismissed', 'true')
  })
}
