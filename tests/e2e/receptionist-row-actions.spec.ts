import type { Locator, Page } from '@playwright/test'
import { expect, login, skipLeadsTour, test } from './fixtures'
import { allowCallsAllDay, verifyMyPhone } from './support/calls'

// Issue 40 item 20, in the browser: a receptionist walks the spec's row actions on the seeded
// demo data by clicking the screens' own buttons (the API walk is
// tests/integration/demo-row-actions.api.test.ts): leads (details, WhatsApp "Welcome" and email
// through the message dialog, a sandbox Call and its outcome, a status change, Convert), patients (details,
// message), appointments (confirm, complete / no-show a started one if the demo has one,
// cancel), Pending Reminders (Send Now) and billing (Mark Paid). None may be refused by a rule
// the demo could have satisfied: every toast and every refused request is collected with the
// action that caused it, and the list must end empty.

const RECEPTIONIST = 'receptionist@sanjeevani.demo'
const LAPTOP = { width: 1280, height: 800 }
/** A toast or answer that refuses. */
const REFUSAL = /failed|cannot|not allowed/i

interface Seen {
  action: string
  type: string
  text: string
}

/**
 * Every toast the page shows (sonner's `[data-sonner-toast]`, with its type) and every change
 * the server refused (a non-GET answered 4xx/5xx), each with the action under way.
 */
async function watch(page: Page) {
  const state = { action: 'sign in', toasts: [] as Seen[], refused: [] as Seen[] }
  const pending: Promise<void>[] = []
  const failed: Seen[] = []
  const refuses = (t: Seen) => t.type === 'error' || REFUSAL.test(t.text)
  await page.exposeFunction('__arogyaToast', (type: string, text: string) => {
    state.toasts.push({ action: state.action, type, text })
  })
  await page.addInitScript(() => {
    const seen = new WeakSet<Element>()
    const w = window as unknown as { __arogyaToast: (type: string, text: string) => void }
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
        const text = toast.textContent?.trim() ?? ''
        if (seen.has(toast) || !text) continue
        seen.add(toast)
        void w.__arogyaToast(toast.getAttribute('data-type') ?? '', text)
      }
    }).observe(document, { childList: true, subtree: true })
  })
  page.on('response', (r) => {
    const method = r.request().method()
    if (method === 'GET' || r.status() < 400 || !new URL(r.url()).pathname.startsWith('/api/'))
      return
    const action = state.action
    pending.push(
      r.text().then(
        (body) => {
          state.refused.push({
            action,
            type: `${method} ${new URL(r.url()).pathname} → ${r.status()}`,
            text: body,
          })
        },
        () => undefined,
      ),
    )
  })
  return {
    state,
    /**
     * Runs one action as a named step; what it shows is recorded under its name. A step that
     * fails is recorded too and the walk goes on (its dialogs closed), so one run names every
     * refused action.
     */
    async act(name: string, body: () => Promise<void>) {
      state.action = name
      try {
        await test.step(name, body)
      } catch (error) {
        const text = error instanceof Error ? error.message.split('\n').slice(0, 8).join('\n') : ''
        failed.push({ action: name, type: 'step failed', text })
        for (let i = 0; i < 3 && (await page.getByRole('dialog').count()) > 0; i++)
          await page.keyboard.press('Escape')
      }
    },
    /**
     * Waits for a success toast whose text contains `text`, shown during the current action;
     * a refusing toast instead fails at once with its words.
     */
    async toast(text: string) {
      const action = state.action
      await expect
        .poll(
          () => {
            const mine = state.toasts.filter((t) => t.action === action)
            const refusal = mine.find(refuses)
            if (refusal) return `refused: ${refusal.text}`
            return mine.some((t) => t.text.includes(text)) ? 'shown' : 'not yet'
          },
          { message: `a "${text}" toast during "${action}"` },
        )
        .toBe('shown')
    },
    /** What refused: error toasts, toasts with a refusing word, refused requests, failed steps. */
    async refusals() {
      await Promise.all(pending)
      return [...state.toasts.filter(refuses), ...state.refused, ...failed]
    },
  }
}

/** tel: links would hand over to another app (the test browser stalls on them instead). */
async function stubTelLinks(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('click', (e) => {
      const link = e.target instanceof Element ? e.target.closest('a') : null
      if (link && /^(tel|sms|mailto):/.test(link.getAttribute('href') ?? '')) e.preventDefault()
    })
  })
}

/** The names (from "More about <name>") of the rows, each once, that appear only once. */
async function uniqueNames(rows: Locator): Promise<string[]> {
  const labels = await rows
    .getByRole('button', { name: /^More about / })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''))
  const names = labels.map((l) => l.replace(/^More about /, ''))
  return names.filter((n) => names.indexOf(n) === names.lastIndexOf(n))
}

const historyEntry = (dialog: Locator, text: string) =>
  dialog.getByTestId('communication').filter({ hasText: text })

/** The WhatsApp Welcome template's and the email Welcome's own words (spec-templates.ts). */
const WHATSAPP_WELCOME = 'Reply here with any question'
const EMAIL_WELCOME = 'help you book a convenient time for your visit'

/** Picks the Welcome template in the open message dialog and sends it. */
async function sendWelcome(dialog: Locator) {
  await dialog.getByLabel('Template').selectOption({ label: 'Welcome' })
  await expect(dialog.getByLabel('Message')).not.toHaveValue('')
  await dialog.getByRole('button', { name: 'Send Message' }).click()
  await expect(dialog).toHaveCount(0)
}

// Calls to leads are held outside calling hours: allowed all day for the walk, then restored.
let restore: (() => Promise<void>) | undefined
test.beforeAll(async ({ browser }) => {
  restore = (await allowCallsAllDay(browser)).restore
})
test.afterAll(async () => {
  await restore?.()
})

test("a receptionist's row actions on the demo are done in the browser, none refused", async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.setViewportSize(LAPTOP)
  await skipLeadsTour(page)
  await stubTelLinks(page)
  const walk = await watch(page)
  await login(page, RECEPTIONIST)

  // ---- Leads: the seeded Facebook leads (staff-added ones are never from Facebook). ----
  const rows = page.getByTestId('lead-row')
  const rowOf = (name: string) =>
    rows.filter({ has: page.getByRole('button', { name: `More about ${name}`, exact: true }) })
  let messaged = ''
  let restatused = ''
  let converting = ''
  await walk.act('list the demo leads', async () => {
    await page.goto('/leads')
    await page.getByLabel('Filter by source').selectOption('meta-facebook')
    await expect(rows.first()).toBeVisible()
    // New leads: no opt-out (the demo's STOP came from a lead already contacted).
    const isNew = rows.filter({ has: page.getByText('New', { exact: true }) })
    const withEmail = isNew.filter({ hasNot: page.getByText('No email', { exact: true }) })
    const names = await uniqueNames(isNew)
    messaged = (await uniqueNames(withEmail)).find((n) => names.includes(n)) ?? ''
    const others = names.filter((n) => n !== messaged)
    restatused = others[0] ?? ''
    converting = others[1] ?? ''
    expect(names.length, 'new demo leads on the first page').toBeGreaterThanOrEqual(3)
    expect(messaged, 'a new demo lead with an email address').not.toBe('')
  })

  const message = page.getByRole('dialog', { name: `Send Message to ${messaged}` })
  await walk.act(`WhatsApp "Welcome" to ${messaged}`, async () => {
    await rowOf(messaged)
      .getByRole('button', { name: `WhatsApp ${messaged}`, exact: true })
      .click()
    await expect(message.getByLabel('Type')).toHaveValue('whatsapp')
    await sendWelcome(message)
    await walk.toast('Message queued')
  })

  await walk.act(`email "Welcome" to ${messaged}`, async () => {
    await rowOf(messaged)
      .getByRole('button', { name: `Email ${messaged}`, exact: true })
      .click()
    await expect(message.getByLabel('Type')).toHaveValue('email')
    await sendWelcome(message)
    await walk.toast('Message queued')
  })

  await walk.act(`call ${messaged}; when it has ended, mark it Interested`, async () => {
    await verifyMyPhone(page)
    const started = page.waitForResponse(
      (r) => r.url().endsWith('/api/calls') && r.request().method() === 'POST',
    )
    await rowOf(messaged)
      .getByRole('button', { name: `Call ${messaged}`, exact: true })
      .click()
    expect((await started).status()).toBe(201)
    const bar = page.getByRole('region', { name: 'Call', exact: true })
    await expect(bar).toContainText(`Call with ${messaged}`)
    // The sandbox answers, rings out or is busy by the number's last digit: it ends anyway.
    await expect(bar.getByTestId('call-status')).not.toHaveText(/Placing|Ringing|Connected/, {
      timeout: 20_000,
    })
    const outcome = page.getByRole('dialog', { name: `How did the call with ${messaged} go?` })
    await outcome.getByRole('radio', { name: 'Interested', exact: true }).check()
    await outcome.getByRole('button', { name: 'Save outcome' }).click()
    await walk.toast('Call outcome saved')
    await expect(bar).toHaveCount(0)
  })

  await walk.act(`open ${messaged}'s details`, async () => {
    await rowOf(messaged)
      .getByRole('button', { name: `More about ${messaged}`, exact: true })
      .click()
    const details = page.getByRole('dialog', { name: `Lead Details: ${messaged}` })
    await expect(historyEntry(details, WHATSAPP_WELCOME)).toHaveCount(1)
    await expect(historyEntry(details, EMAIL_WELCOME)).toHaveCount(1)
    await expect(historyEntry(details, 'Outbound call')).toHaveCount(1)
    await page.keyboard.press('Escape')
    await expect(details).toHaveCount(0)
  })

  await walk.act(`change ${restatused}'s status to Contacted`, async () => {
    await rowOf(restatused)
      .getByRole('button', { name: `More about ${restatused}`, exact: true })
      .click()
    const details = page.getByRole('dialog', { name: `Lead Details: ${restatused}` })
    await details.getByLabel('Status').selectOption('contacted')
    await details.getByRole('button', { name: 'Save Changes' }).click()
    await walk.toast('Lead updated')
    await page.keyboard.press('Escape')
    await expect(details).toHaveCount(0)
    await expect(rowOf(restatused)).toContainText('Contacted')
  })

  await walk.act(`convert ${converting} to a patient`, async () => {
    await rowOf(converting)
      .getByRole('button', { name: `More about ${converting}`, exact: true })
      .click()
    const details = page.getByRole('dialog', { name: `Lead Details: ${converting}` })
    await details.getByRole('button', { name: 'Convert to patient' }).click()
    await page
      .getByRole('alertdialog', { name: 'Convert to patient?' })
      .getByRole('button', { name: 'Convert' })
      .click()
    await walk.toast('Lead converted to patient')
    await expect(details.getByRole('link', { name: 'Open patient record' })).toBeVisible()
    await page.keyboard.press('Escape')
  })

  // ---- Patients: the newest on the list but the one just converted, its details, a message. ----
  await walk.act('message a patient and open the details', async () => {
    await page.goto('/patients')
    const cards = page.getByTestId('patient-card')
    await expect(cards.first()).toBeVisible()
    const labels = await cards
      .getByRole('button', { name: /^View Details of / })
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''))
    const names = labels.map((l) => l.replace(/^View Details of /, ''))
    const name = names.find((n) => n !== converting && names.indexOf(n) === names.lastIndexOf(n))
    if (!name) throw new Error(`No patient to message among ${names.join(', ')}`)
    const card = cards.filter({
      has: page.getByRole('button', { name: `View Details of ${name}`, exact: true }),
    })
    await card.getByRole('button', { name: `Send Message to ${name}`, exact: true }).click()
    const dialog = page.getByRole('dialog', { name: `Send Message to ${name}` })
    await expect(dialog.getByLabel('Type')).toHaveValue('whatsapp')
    await sendWelcome(dialog)
    await walk.toast('Message queued')
    await card.getByRole('button', { name: `View Details of ${name}`, exact: true }).click()
    const details = page.getByRole('dialog', { name: `Patient Details: ${name}` })
    await expect(historyEntry(details, WHATSAPP_WELCOME).first()).toBeVisible()
    await page.keyboard.press('Escape')
  })

  // ---- Appointments: today and upcoming, soonest first (today's have started). ----
  const appointmentCards = page.getByTestId('appointment-card')
  const cardById = (id: string) => page.locator(`[data-appointment-id="${id}"]`)
  const startedButton = page.getByRole('button', { name: / as a no-show$/ })
  /** The first card on the first pages of the list that `pick` keeps, by its id. */
  async function findCard(pick: (cards: Locator) => Locator, skip: string[] = []) {
    await page.goto('/appointments')
    for (let n = 0; n < 4; n++) {
      await expect(appointmentCards.first()).toBeVisible()
      const ids = await pick(appointmentCards).evaluateAll((cards) =>
        cards.map((c) => c.getAttribute('data-appointment-id') ?? ''),
      )
      const id = ids.find((i) => !skip.includes(i))
      if (id) return id
      const next = page
        .getByRole('navigation', { name: 'Appointments pages' })
        .getByRole('button', { name: 'Next' })
      if (!(await next.isVisible()) || (await next.isDisabled())) break
      const range = await page.getByTestId('appointments-range').textContent()
      await next.click()
      await expect(page.getByTestId('appointments-range')).not.toHaveText(range ?? '')
    }
    return null
  }
  /** The card's refusal ('Failed to update appointment' or the server's reason). */
  const refusalOn = (card: Locator) => card.getByTestId('appointment-error')
  /** Not started yet, and offering `button`. */
  const upcomingWith = (button: RegExp) => (cards: Locator) =>
    cards
      .filter({ has: page.getByRole('button', { name: button }) })
      .filter({ hasNot: startedButton })

  let confirmed = ''
  await walk.act('confirm an upcoming appointment', async () => {
    const id = await findCard(upcomingWith(/^Confirm /))
    confirmed = id ?? ''
    expect(id, 'an upcoming scheduled appointment in the demo').not.toBeNull()
    const card = cardById(id ?? '')
    await card.getByRole('button', { name: /^Confirm / }).click()
    await expect(card.getByText('Confirmed', { exact: true }).or(refusalOn(card))).toBeVisible()
    expect(await refusalOn(card).allTextContents()).toEqual([])
  })

  await walk.act('cancel an upcoming appointment', async () => {
    const id = await findCard(upcomingWith(/^Cancel /), [confirmed])
    expect(id, 'an upcoming open appointment in the demo').not.toBeNull()
    const card = cardById(id ?? '')
    await card.getByRole('button', { name: /^Cancel / }).click()
    const dialog = page.getByRole('dialog', { name: 'Cancel this appointment?' })
    await dialog.getByLabel('Reason (optional)').fill('Patient asked to cancel')
    await dialog.getByRole('button', { name: 'Cancel appointment' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(card.getByText('Cancelled', { exact: true }).or(refusalOn(card))).toBeVisible()
    expect(await refusalOn(card).allTextContents()).toEqual([])
  })

  // Complete and No-show once an appointment has started: the demo's started, still open ones
  // (today's, if the hour of the run has any).
  let completed = ''
  /** A step the hour of the run leaves nothing for, said in the report. */
  const nothingFor = (step: string) => {
    test.info().annotations.push({ type: 'not walked', description: step })
  }
  await walk.act('complete a started appointment (if the demo has one)', async () => {
    const id = await findCard((cards) =>
      cards.filter({ has: page.getByRole('button', { name: /^Complete / }) }),
    )
    if (!id) return nothingFor('no started, confirmed appointment to complete')
    completed = id
    const card = cardById(id)
    await card.getByRole('button', { name: /^Complete / }).click()
    await expect(card.getByText('Completed', { exact: true }).or(refusalOn(card))).toBeVisible()
    expect(await refusalOn(card).allTextContents()).toEqual([])
  })

  await walk.act('mark a started appointment a no-show (if the demo has one)', async () => {
    const id = await findCard((cards) => cards.filter({ has: startedButton }), [completed])
    if (!id) return nothingFor('no started, open appointment to mark a no-show')
    const card = cardById(id)
    await card.getByRole('button', { name: / as a no-show$/ }).click()
    await expect(card.getByText('No-show', { exact: true }).or(refusalOn(card))).toBeVisible()
    expect(await refusalOn(card).allTextContents()).toEqual([])
  })

  // ---- Pending Reminders: Send Now on those shown (up to three). ----
  await walk.act('Send Now on the pending reminders', async () => {
    await page.goto('/settings?tab=notifications')
    const list = page.getByRole('list', { name: 'Pending reminders' })
    await expect(list).toBeVisible()
    const sendNow = list.getByRole('button', { name: /^Send Now: / })
    const sent = () =>
      walk.state.toasts.filter((t) => t.type !== 'error' && t.text.includes('Reminder sent')).length
    for (let i = 0; i < 3; i++) {
      const button = sendNow.and(page.locator(':enabled')).first()
      if (i > 0 && !(await button.isVisible())) break
      const before = sent()
      await button.click()
      await expect.poll(sent, { message: 'a "Reminder sent" toast' }).toBe(before + 1)
    }
  })

  // ---- Billing: an unpaid demo invoice is opened and marked paid. ----
  await walk.act('open an unpaid invoice and mark it paid', async () => {
    await page.goto('/billing')
    const unpaid = page
      .getByTestId('invoice-card')
      .filter({ has: page.getByRole('button', { name: /^Mark Paid/ }) })
      .first()
    await expect(unpaid).toBeVisible()
    const number = ((await unpaid.getByRole('heading', { level: 2 }).textContent()) ?? '').trim()
    const card = page
      .getByTestId('invoice-card')
      .filter({ has: page.getByRole('heading', { level: 2, name: number, exact: true }) })
    await card.getByRole('button', { name: /^View Details/ }).click()
    const details = page.getByRole('dialog', { name: `Invoice ${number}` })
    await expect(details.getByTestId('amount-in-words')).toBeVisible()
    await details.getByRole('button', { name: 'Close' }).first().click()
    await expect(details).toHaveCount(0)
    await card.getByRole('button', { name: /^Mark Paid/ }).click()
    const pay = page.getByRole('dialog', { name: `Mark Paid: ${number}` })
    await pay.getByLabel('Payment method').selectOption('upi')
    await pay.getByLabel('Reference').fill('UPI-401120260001')
    await pay.getByRole('button', { name: 'Mark Paid', exact: true }).click()
    await walk.toast('Invoice updated successfully')
    await expect(pay).toHaveCount(0)
    await expect(card.getByRole('button', { name: /^Mark Paid/ })).toHaveCount(0)
  })

  expect(await walk.refusals(), 'toasts and answers that refused an action').toEqual([])
})
