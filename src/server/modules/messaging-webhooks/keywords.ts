import type { ConsentAction } from '../../../shared/messaging'

/**
 * Opt-out and opt-in keywords of an inbound message (issue 25): the whole message, any case,
 * surrounding spaces and punctuation ignored ("stop", "STOP!", " Stop. "). Hindi "रोकें"
 * ("stop") and "बंद" ("off") opt out too. A WhatsApp quick-reply button titled
 * "Unsubscribe" or "Stop promotions" opts out, recorded as given by button.
 */
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'रोकें', 'बंद'])
const OPT_IN = new Set(['START', 'UNSTOP', 'YES'])
const OPT_OUT_BUTTONS = new Set(['UNSUBSCRIBE', 'STOP PROMOTIONS'])

/** Letters, digits and Devanagari marks kept; punctuation and spaces at the ends dropped. */
function normalise(text: string): string {
  return text
    .normalize('NFC')
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '')
    .replace(/\s+/g, ' ')
    .toUpperCase()
}

export interface KeywordResult {
  action: ConsentAction
  method: 'keyword' | 'button'
}

/** The consent an inbound text asks for, or null for an ordinary message. */
export function keywordOf(text: string): KeywordResult | null {
  if (text.length > 40) return null
  const word = normalise(text)
  if (OPT_OUT.has(word)) return { action: 'opt_out', method: 'keyword' }
  if (OPT_IN.has(word)) return { action: 'opt_in', method: 'keyword' }
  return null
}

/** The consent a button reply's title asks for (buttons: opt-out only, or a keyword). */
export function buttonOf(title: string): KeywordResult | null {
  if (title.length > 40) return null
  if (OPT_OUT_BUTTONS.has(normalise(title))) return { action: 'opt_out', method: 'button' }
  const keyword = keywordOf(title)
  return keyword ? { ...keyword, method: 'button' } : null
}
