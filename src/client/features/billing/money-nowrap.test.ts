import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Money } from './components/money'

/*
 * Issue 40 item 8: at 1280 px Billing wrapped money mid-number ("₹1,97,197.|05"). Every amount
 * Billing shows is a <Money>: one unbreakable line of tabular figures.
 */

const root = join(__dirname)

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return tsxFiles(path)
    return e.name.endsWith('.tsx') ? [path] : []
  })
}

describe('money on Billing', () => {
  it('renders as one unbreakable figure', () => {
    const html = renderToStaticMarkup(createElement(Money, { paise: 19_719_705 }))
    expect(html).toBe('<span class="whitespace-nowrap tabular-nums">₹1,97,197.05</span>')
    expect(
      renderToStaticMarkup(createElement(Money, { paise: -5_000, className: 'font-bold' })),
    ).toBe('<span class="whitespace-nowrap tabular-nums font-bold">−₹50.00</span>')
  })

  it('no screen puts a bare formatMoney(…) on the page: amounts go through <Money>', () => {
    const bare: string[] = []
    for (const file of tsxFiles(root)) {
      if (file.endsWith('money.tsx')) continue
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((text, i) => {
          // A JSX child such as {formatMoney(x)} or {a ? formatMoney(x) : '—'}; attributes
          // (label={…}), template strings (`${…}`) and <option> texts are plain strings.
          if (
            /(?<![=$])\{[^{}]*\bformatMoney\(/.test(text) &&
            !/<option|\(\{formatMoney/.test(text)
          )
            bare.push(`${relative(root, file)}:${String(i + 1)}: ${text.trim()}`)
        })
    }
    expect(bare).toEqual([])
  })
})
