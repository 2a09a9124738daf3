import { escapeHtml } from '../../../shared/faq-format'

/**
 * The public FAQ page's markup (faq-public-page.ts): a light, self-contained document with its
 * own small stylesheet (style-src allows inline styles; no script at all). Every value put in
 * it is escaped here, except answerHtml, which faqAnswerToHtml built escaped.
 */

export interface FaqPageGroup {
  category: string
  label: string
  faqs: { id: string; question: string; answerHtml: string }[]
}

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#0f172a;background:#f8fafc;line-height:1.55;overflow-wrap:anywhere}
a{color:#0f766e}
header{background:#fff;border-bottom:1px solid #e2e8f0}
.wrap{max-width:48rem;margin:0 auto;padding:1rem}
.eyebrow{margin:0;font-size:.875rem;font-weight:600;color:#0f766e}
h1{margin:.25rem 0 0;font-size:1.5rem;line-height:1.25}
form{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}
label{width:100%;font-size:.875rem;font-weight:600}
input[type=search]{flex:1 1 12rem;min-width:0;padding:.55rem .75rem;font:inherit;border:1px solid #94a3b8;border-radius:.375rem;background:#fff}
button{padding:.55rem 1rem;font:inherit;font-weight:600;color:#fff;background:#0f766e;border:0;border-radius:.375rem;cursor:pointer}
input:focus-visible,button:focus-visible,a:focus-visible,summary:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.status{font-size:.9rem;color:#334155}
h2{margin:1.5rem 0 .5rem;font-size:1.125rem}
details{background:#fff;border:1px solid #e2e8f0;border-radius:.5rem;margin:.5rem 0;padding:.75rem 1rem}
summary{cursor:pointer;font-weight:600}
.answer{margin-top:.5rem;color:#1e293b}
.answer p{margin:.5rem 0}
.answer ul,.answer ol{margin:.5rem 0;padding-left:1.5rem}
.empty{background:#fff;border:1px dashed #cbd5e1;border-radius:.5rem;padding:1.5rem;text-align:center}
footer{font-size:.8rem;color:#475569;padding:2rem 1rem;text-align:center}
`

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(title)}">
<style>${STYLE}</style>
</head>
<body>
${body}
<footer>Powered by Arogya CRM</footer>
</body>
</html>`
}

export function faqPageHtml(page: {
  hospitalName: string
  path: string
  q: string
  groups: FaqPageGroup[]
  count: number
}): string {
  const name = escapeHtml(page.hospitalName)
  const q = escapeHtml(page.q)
  const open = page.q ? ' open' : ''
  const status = page.q
    ? `<p class="status" role="status">${page.count === 1 ? '1 answer' : `${page.count} answers`} for “${q}”. <a href="${escapeHtml(page.path)}">Show all questions</a></p>`
    : ''
  const groups = page.groups
    .map(
      (g) =>
        `<section aria-labelledby="cat-${g.category}"><h2 id="cat-${g.category}">${escapeHtml(g.label)}</h2>${g.faqs
          .map(
            (f) =>
              `<details${open}><summary>${escapeHtml(f.question)}</summary><div class="answer">${f.answerHtml}</div></details>`,
          )
          .join('')}</section>`,
    )
    .join('')
  const empty = page.q
    ? `<div class="empty"><p>No questions match your search.</p><p><a href="${escapeHtml(page.path)}">Show all questions</a></p></div>`
    : `<div class="empty"><p>This clinic has not published any questions yet.</p></div>`
  return document(
    `Frequently asked questions · ${page.hospitalName}`,
    `<header><div class="wrap"><p class="eyebrow">Frequently asked questions</p><h1>${name}</h1></div></header>
<main class="wrap">
<form method="get" action="${escapeHtml(page.path)}" role="search">
<label for="faq-search">Search questions</label>
<input id="faq-search" type="search" name="q" value="${q}" maxlength="100" placeholder="e.g. payment, appointment">
<button type="submit">Search</button>
</form>
${status}
${page.count ? groups : empty}
</main>`,
  )
}

export function faqNotFoundHtml(): string {
  return document(
    'FAQ page not found · Arogya CRM',
    `<main class="wrap"><h1>FAQ page not found</h1><p>There is no FAQ page at this address. Please check the link you were given, or contact the clinic.</p></main>`,
  )
}
