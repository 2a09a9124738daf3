import { describe, expect, it } from 'vitest'
import { faqAnswerToHtml } from '../../../shared/faq-format'
import { faqNotFoundHtml, faqPageHtml } from './faq-public-html'
import { groupByCategory, publicSearchText } from './faq-public-page'

const faq = (category: 'general' | 'billing', question: string) => ({
  id: question,
  question,
  answer: 'A',
  category,
  sortOrder: 0,
  isPublic: true,
  createdAt: '',
  updatedAt: '',
})

describe('the public FAQ page', () => {
  it("has the app's favicon (issue 40 item 16)", () => {
    expect(faqNotFoundHtml()).toContain(
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    )
  })

  it('cleans the search: one string, no control characters or lone surrogates, 100 characters', () => {
    expect(publicSearchText(['upi', 'cash'])).toBe('upi')
    expect(publicSearchText({ a: 1 })).toBe('')
    expect(publicSearchText('a\u0000b\uD800c')).toBe('a b c')
    expect(publicSearchText(`  ${'x'.repeat(150)}`)).toHaveLength(100)
  })

  it('groups by category in the spec order and leaves empty ones out', () => {
    const groups = groupByCategory([faq('billing', 'B'), faq('general', 'G')])
    expect(groups.map((g) => g.label)).toEqual(['General', 'Billing'])
  })

  it('escapes the hospital name, the search and the questions; has no script', () => {
    const html = faqPageHtml({
      hospitalName: 'Dr. <Rao> & "Sons"',
      path: '/h/rao/faq',
      q: '"><script>x</script>',
      count: 1,
      groups: [
        {
          category: 'general',
          label: 'General',
          faqs: [{ id: '1', question: '<img src=x>', answerHtml: faqAnswerToHtml('<b>hi</b>') }],
        },
      ],
    })
    expect(html).toContain(
      '<title>Frequently asked questions · Dr. &lt;Rao&gt; &amp; &quot;Sons&quot;</title>',
    )
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"')
    expect(html).toContain('<summary>&lt;img src=x&gt;</summary>')
    expect(html).toContain('<p>&lt;b&gt;hi&lt;/b&gt;</p>')
    expect(html).not.toMatch(/<script|<img|<b>/)
    expect(faqNotFoundHtml()).toContain('FAQ page not found')
  })
})
