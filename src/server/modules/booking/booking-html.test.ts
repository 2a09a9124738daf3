import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { BookingPage } from '../../../shared/schemas/booking'
import { renderBookingHtml } from './booking-html'

const template = readFileSync('src/client/index.html', 'utf8')

function page(name: string, address: string | null): BookingPage {
  return {
    hospital: { name, address, timeZone: 'Asia/Kolkata', slug: 'dollar-clinic', grievance: null },
    services: [],
    doctors: [],
    days: [],
    holdMinutes: 5,
  }
}

describe('renderBookingHtml with replacement patterns in a hospital’s texts (issue 39, item 16)', () => {
  it("renders a hospital named A$'B$&C exactly, once, in every place", () => {
    const name = "A$'B$&C"
    const address = '1 $` Road, $1 $$ Nagar, $<x> Pune'
    const html = renderBookingHtml(
      template,
      {
        title: `Book an appointment · ${name}`,
        description: `Book an appointment at ${name} online.`,
        url: 'https://arogya.example/book/dollar-clinic',
        data: page(name, address),
      },
      { signedOut: true, preload: ['/assets/a.js'] },
    )
    const escaped = 'A$&#39;B$&amp;C'
    expect(html).toContain(`<title>Book an appointment · ${escaped}</title>`)
    expect(html).toContain(
      `<meta name="description" content="Book an appointment at ${escaped} online." />`,
    )
    expect(html).toContain(`<h1 class="text-xl font-semibold text-slate-900">${escaped}</h1>`)
    expect(html).toContain('1 $` Road, $1 $$ Nagar, $&lt;x&gt; Pune')
    const data = /<script id="booking-data" type="application\/json">(.*?)<\/script>/.exec(html)
    expect(JSON.parse(data?.[1] ?? '{}')).toMatchObject({ hospital: { name, address } })
    // Nothing of the template was copied in twice, nothing left out.
    for (const once of ['<head>', '</head>', '<div id="root">', '<title>', '</html>']) {
      expect(html.split(once), once).toHaveLength(2)
    }
    expect(html.split('<meta name="description"')).toHaveLength(2)
  })
})
