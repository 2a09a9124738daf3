import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hostileString } from '../../tests/support/hostile'
import {
  escapeHtml,
  faqAnswerText,
  faqAnswerToHtml,
  HTML_TAG,
  parseFaqAnswer,
  parseInline,
  safeHref,
} from './faq-format'

/** The only markup faqAnswerToHtml may emit; anything else with a '<' is a leak. */
const ALLOWED_MARKUP =
  /<\/?(?:p|ul|ol|li)>|<br>|<a href="(?:https?:\/\/|mailto:|tel:)[^"<>]*" rel="noopener noreferrer nofollow">|<\/a>/g

describe('parseFaqAnswer', () => {
  it('splits paragraphs on blank lines and keeps single line breaks', () => {
    expect(parseFaqAnswer('One\ntwo\n\n\nThree')).toEqual([
      {
        kind: 'paragraph',
        lines: [[{ kind: 'text', text: 'One' }], [{ kind: 'text', text: 'two' }]],
      },
      { kind: 'paragraph', lines: [[{ kind: 'text', text: 'Three' }]] },
    ])
  })

  it('makes bulleted and numbered lists', () => {
    const blocks = parseFaqAnswer('Steps:\n1. Open Patients\n2) Click Add\n- UPI\n* Cash')
    expect(blocks.map((b) => b.kind)).toEqual(['paragraph', 'list', 'list'])
    expect(blocks[1]).toMatchObject({ kind: 'list', ordered: true })
    expect(blocks[2]).toMatchObject({ kind: 'list', ordered: false })
    expect(faqAnswerToHtml('- UPI\n- Cash')).toBe('<ul><li>UPI</li><li>Cash</li></ul>')
    expect(faqAnswerToHtml('1. A\n2. B')).toBe('<ol><li>A</li><li>B</li></ol>')
  })

  it('turns [text](url) into a link for http, https, mailto and tel only', () => {
    expect(parseInline('See [our site](https://example.in/faq) now')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'our site', href: 'https://example.in/faq' },
      { kind: 'text', text: ' now' },
    ])
    expect(parseInline('[Call](tel:+912025501234)')[0]).toMatchObject({ kind: 'link' })
    expect(parseInline('[Mail](mailto:care@clinic.in)')[0]).toMatchObject({ kind: 'link' })
    for (const bad of [
      '[x](javascript:alert(1))',
      '[x](JavaScript:alert`1`)',
      '[x](data:text/html,hi)',
      '[x](vbscript:msgbox)',
      '[x](/relative)',
      '[x](//evil.example)',
      '[x](http:/nohost)',
    ]) {
      expect(
        parseInline(bad).every((p) => p.kind === 'text'),
        bad,
      ).toBe(true)
    }
  })

  it('renders the answer escaped, with line breaks in paragraphs', () => {
    expect(faqAnswerToHtml('Fees < ₹500 & "free" for kids\nCall us')).toBe(
      '<p>Fees &lt; ₹500 &amp; &quot;free&quot; for kids<br>Call us</p>',
    )
    expect(faqAnswerToHtml('[a "q"](https://x.in/?a=1&b=<2>)')).toBe(
      '<p><a href="https://x.in/?a=1&amp;b=%3C2%3E" rel="noopener noreferrer nofollow">a &quot;q&quot;</a></p>',
    )
  })

  it('gives plain text for snippets', () => {
    expect(faqAnswerText('Pay by:\n- [UPI](https://upi.in)\n- Cash')).toBe('Pay by: UPI Cash')
  })
})

describe('safeHref and HTML_TAG', () => {
  it('normalises allowed addresses and refuses the rest', () => {
    expect(safeHref('https://Example.IN/a b')).toBe('https://example.in/a%20b')
    expect(safeHref('javascript:alert(1)')).toBeNull()
    expect(safeHref(' https://x.in')).toBeNull()
  })

  it('spots tag-like text but not comparisons', () => {
    for (const tag of ['<script>', '<SCRIPT', '</p>', '<!-- x -->', '<img src=x>', '<?xml'])
      expect(HTML_TAG.test(tag), tag).toBe(true)
    for (const text of ['a < b', 'x<5', '<3', '->', '5 > 3'])
      expect(HTML_TAG.test(text)).toBe(false)
  })
})

describe('no input ever reaches the output as markup (property)', () => {
  const pieces = fc.oneof(
    hostileString,
    fc.constantFrom(
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '"><svg onload=alert(1)>',
      "'",
      '[',
      ']',
      '(',
      ')',
      '\n',
      '\n\n',
      '- ',
      '1. ',
      '[x](',
      'javascript:alert(1)',
      'https://x.in/"><b>',
      'mailto:a@b.in?subject=<x>',
      '&lt;',
    ),
  )
  const answers = fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join(''))

  it('every < in the HTML is one of the allowed tags', () => {
    fc.assert(
      fc.property(answers, (answer) => {
        const html = faqAnswerToHtml(answer)
        expect(html.replace(ALLOWED_MARKUP, '')).not.toMatch(/[<>]/)
      }),
      { numRuns: 500 },
    )
  })

  it('the text of every part, escaped, is what the author typed (nothing dropped)', () => {
    fc.assert(
      fc.property(answers, (answer) => {
        const typed = answer.replace(/\s+/g, '')
        const shown = parseFaqAnswer(answer)
          .flatMap((b) => (b.kind === 'paragraph' ? b.lines : b.items))
          .flat()
          .map((p) => p.text)
          .join('')
          .replace(/\s+/g, '')
        // Only list markers and link syntax may disappear.
        expect(shown.length).toBeLessThanOrEqual(typed.length)
        expect(escapeHtml(shown)).not.toMatch(/[<>]/)
      }),
      { numRuns: 300 },
    )
  })
})
