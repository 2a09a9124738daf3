/**
 * FAQ answers' tiny formatting syntax (issue 28, docs/decisions/035): the author writes plain
 * text, and
 *  - a blank line starts a new paragraph (a single line break stays a line break);
 *  - lines starting with "- " (or "* ") make a bulleted list, "1. " (or "1) ") a numbered one;
 *  - [text](https://example.com) is a link, for http, https, mailto and tel addresses only;
 *    anything else ("javascript:", relative paths) stays as the literal text.
 *
 * The parser builds a small tree of text and links; the client renders it as React elements
 * and the server's public page through faqAnswerToHtml, which escapes every character of the
 * author's text. Nothing the author typed is ever emitted as markup.
 */

export type FaqInline =
  { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string }

/** One line of inline content. */
export type FaqLine = FaqInline[]

export type FaqBlock =
  { kind: 'paragraph'; lines: FaqLine[] } | { kind: 'list'; ordered: boolean; items: FaqLine[] }

/** Tag-like text as browsers read it ("<script", "</p", "<!--", "<?xml", "<b>"): refused in questions and answers. */
export const HTML_TAG = /<[a-z!?/]/i

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:'])

/** The normalised address when it is an absolute http(s), mailto or tel URL; otherwise null. */
export function safeHref(url: string): string | null {
  if (!/^(https?:\/\/|mailto:|tel:)/i.test(url)) return null
  try {
    const parsed = new URL(url)
    if (!ALLOWED_PROTOCOLS.has(parsed.protocol)) return null
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.hostname)
      return null
    return parsed.href
  } catch {
    return null
  }
}

const LINK = /\[([^[\]\n]{1,200})\]\(([^()\s]{1,2000})\)/g

/** A line's text and links; a link with an address that is not allowed stays literal text. */
export function parseInline(line: string): FaqLine {
  const out: FaqLine = []
  const pushText = (text: string) => {
    if (!text) return
    const last = out[out.length - 1]
    if (last?.kind === 'text') last.text += text
    else out.push({ kind: 'text', text })
  }
  let at = 0
  for (const match of line.matchAll(LINK)) {
    const [whole, text = '', url = ''] = match
    const start = match.index
    pushText(line.slice(at, start))
    const href = safeHref(url)
    if (href && text.trim()) out.push({ kind: 'link', text, href })
    else pushText(whole)
    at = start + whole.length
  }
  pushText(line.slice(at))
  return out
}

const BULLET = /^\s*[-*]\s+(.*)$/
const NUMBERED = /^\s*\d{1,3}[.)]\s+(.*)$/

/** The answer as paragraphs and lists. */
export function parseFaqAnswer(answer: string): FaqBlock[] {
  const blocks: FaqBlock[] = []
  let current: FaqBlock | null = null
  for (const raw of answer.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd()
    if (line.trim() === '') {
      current = null
      continue
    }
    const bullet = BULLET.exec(line)
    const numbered = bullet ? null : NUMBERED.exec(line)
    const item = bullet ?? numbered
    if (item) {
      const ordered = numbered !== null
      if (current?.kind !== 'list' || current.ordered !== ordered) {
        current = { kind: 'list', ordered, items: [] }
        blocks.push(current)
      }
      current.items.push(parseInline((item[1] ?? '').trim()))
      continue
    }
    if (current?.kind !== 'paragraph') {
      current = { kind: 'paragraph', lines: [] }
      blocks.push(current)
    }
    current.lines.push(parseInline(line.trim()))
  }
  return blocks
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text (or an attribute value) with &, <, >, " and ' escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)
}

export const LINK_REL = 'noopener noreferrer nofollow'

function lineHtml(line: FaqLine): string {
  return line
    .map((part) =>
      part.kind === 'text'
        ? escapeHtml(part.text)
        : `<a href="${escapeHtml(part.href)}" rel="${LINK_REL}">${escapeHtml(part.text)}</a>`,
    )
    .join('')
}

/** The answer as HTML in which only <p>, <br>, <ul>, <ol>, <li> and <a href rel> are markup. */
export function faqAnswerToHtml(answer: string): string {
  return parseFaqAnswer(answer)
    .map((block) =>
      block.kind === 'paragraph'
        ? `<p>${block.lines.map(lineHtml).join('<br>')}</p>`
        : `<${block.ordered ? 'ol' : 'ul'}>${block.items
            .map((item) => `<li>${lineHtml(item)}</li>`)
            .join('')}</${block.ordered ? 'ol' : 'ul'}>`,
    )
    .join('')
}

/** The answer as plain text (search snippets, the suggestions card): no syntax, no markup. */
export function faqAnswerText(answer: string): string {
  return parseFaqAnswer(answer)
    .flatMap((block) => (block.kind === 'paragraph' ? block.lines : block.items))
    .map((line) => line.map((part) => part.text).join(''))
    .join(' ')
}
