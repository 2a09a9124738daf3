/**
 * An amount in words in the Indian numbering system (lakh, crore), as printed on Indian
 * invoices: 12000000 paise is 'Rupees One Lakh Twenty Thousand Only', 15050 paise is
 * 'Rupees One Hundred Fifty and Fifty Paise Only', 0 is 'Rupees Zero Only'.
 */

const ONES = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
]
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety']

/** 1..99 in words. */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n] ?? ''
  const tens = TENS[Math.floor(n / 10)] ?? ''
  return n % 10 === 0 ? tens : `${tens} ${ONES[n % 10] ?? ''}`
}

/** 1..999 in words. */
function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100)
  const rest = n % 100
  const parts: string[] = []
  if (hundreds > 0) parts.push(`${ONES[hundreds] ?? ''} Hundred`)
  if (rest > 0) parts.push(belowHundred(rest))
  return parts.join(' ')
}

/**
 * A whole number in words, Indian system: crore (10^7), lakh (10^5), thousand, hundred. Above 99
 * crore the crores are themselves counted ('One Thousand Two Hundred Crore').
 */
export function integerInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError('Expected a whole number of 0 or more')
  if (n === 0) return 'Zero'
  const parts: string[] = []
  const crore = Math.floor(n / 10_000_000)
  let rest = n % 10_000_000
  if (crore > 0) parts.push(`${integerInWords(crore)} Crore`)
  const lakh = Math.floor(rest / 100_000)
  rest %= 100_000
  if (lakh > 0) parts.push(`${belowHundred(lakh)} Lakh`)
  const thousand = Math.floor(rest / 1000)
  rest %= 1000
  if (thousand > 0) parts.push(`${belowHundred(thousand)} Thousand`)
  if (rest > 0) parts.push(belowThousand(rest))
  return parts.join(' ')
}

/** 'Rupees One Lakh Twenty Thousand Only'; paise as 'and Fifty Paise'. */
export function amountInWords(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise < 0)
    throw new RangeError('Expected a whole number of paise of 0 or more')
  const rupees = Math.floor(paise / 100)
  const rest = paise % 100
  const paiseText = rest > 0 ? ` and ${belowHundred(rest)} Paise` : ''
  return `Rupees ${integerInWords(rupees)}${paiseText} Only`
}
