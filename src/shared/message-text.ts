/**
 * Message text rules shared by the dialog (live counter) and the server (what is sent): SMS
 * parts and encoding, {name}-style template filling, and India's DLT template match.
 */

/**
 * GSM 03.38's basic set (one septet each) and its extension table (two: an escape and the
 * character). Anything else, such as a Devanagari letter or the ₹ sign, makes the whole message
 * UCS-2.
 */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà'
const GSM_EXTENDED = '^{}\\[~]|€\f'
const basic = new Set(GSM_BASIC)
const extended = new Set(GSM_EXTENDED)

export type SmsEncoding = 'GSM-7' | 'UCS-2'

export interface SmsParts {
  encoding: SmsEncoding
  /** Characters as the network counts them (GSM-7 extension characters count 2; UCS-2 code units). */
  length: number
  /** Parts the message is split into (0 for an empty message). */
  parts: number
  /** Characters a single message holds in this encoding: 160 or 70. */
  singleLimit: number
  /** Characters each part holds once split: 153 or 67. */
  perPart: number
}

/** How an SMS of this text is encoded and into how many parts it is split. */
export function smsParts(text: string): SmsParts {
  let gsm = true
  let septets = 0
  for (const ch of text) {
    if (basic.has(ch)) septets += 1
    else if (extended.has(ch)) septets += 2
    else {
      gsm = false
      break
    }
  }
  if (gsm) {
    return {
      encoding: 'GSM-7',
      length: septets,
      parts: septets === 0 ? 0 : septets <= 160 ? 1 : Math.ceil(septets / 153),
      singleLimit: 160,
      perPart: 153,
    }
  }
  // UCS-2 counts UTF-16 code units (an emoji outside the BMP takes two).
  const units = text.length
  return {
    encoding: 'UCS-2',
    length: units,
    parts: units === 0 ? 0 : units <= 70 ? 1 : Math.ceil(units / 67),
    singleLimit: 70,
    perPart: 67,
  }
}

/**
 * Fills `{name}`-style placeholders (the spec's templates) from `values`; an unknown placeholder
 * is left as it is, so a typo shows in the preview instead of vanishing.
 */
export function fillTemplate(body: string, values: Record<string, string>): string {
  return body.replace(/\{([a-zA-Z][a-zA-Z0-9_]*)\}/g, (whole, key: string) =>
    Object.hasOwn(values, key) ? (values[key] ?? '') : whole,
  )
}

/** The placeholder India's DLT registrations use for a variable part. */
export const DLT_VARIABLE = '{#var#}'

/**
 * Whether `text` is the registered DLT template `registered` with only its `{#var#}` parts
 * changed (each variable part: up to 30 characters, as operators allow; no line breaks).
 * Operators reject any other difference, so the sender checks before paying for a rejection.
 */
export function matchesDltTemplate(registered: string, text: string): boolean {
  const pieces = registered.split(DLT_VARIABLE).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const pattern = new RegExp(`^${pieces.join('[^\\r\\n]{0,30}')}$`, 'u')
  return pattern.test(text)
}
