/** Personal names as people write them, titles included. Used by client and server. */

/**
 * Titles written before a name. A title is never a first name: 'Dr. Meera Kulkarni' is
 * Meera, and a greeting says 'Meera' or 'Dr. Meera', never 'Dr.'.
 */
const honorifics = new Set([
  'dr',
  'doctor',
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'prof',
  'professor',
  'sir',
  'madam',
  'shri',
  'sri',
  'shrimati',
  'smt',
  'kumari',
  'km',
  'kum',
  'sushri',
  'drmrs',
  'drms',
])

/** 'Dr.', 'dr', 'Smt.', '(Mrs.)' are titles; 'Meera' is not. */
export function isHonorific(word: string): boolean {
  const lower = word.toLowerCase()
  // Most words have no punctuation to drop: no replace for them (a page of patients splits 30).
  return honorifics.has(/[.,()]/.test(lower) ? lower.replace(/[.,()]/g, '') : lower)
}

/** 'Dr.Meera' is written as one word: its title and its name, else the word alone. */
function partTitle(word: string): string[] {
  // Only a word with a dot can hold a joined title (the list's names mostly have none).
  if (!word.includes('.')) return [word]
  const joined = /^([^.\s]+\.)(\p{L}\S*)$/u.exec(word)
  return joined && isHonorific(joined[1] ?? '') && !isHonorific(joined[2] ?? '')
    ? [joined[1] ?? '', joined[2] ?? '']
    : [word]
}

/**
 * Splits a full name into its leading titles, first name and the rest:
 * 'Dr. Meera Kulkarni' gives { honorific: 'Dr.', firstName: 'Meera', lastName: 'Kulkarni' };
 * 'Meera Joshi' gives { honorific: '', firstName: 'Meera', lastName: 'Joshi' }. A name that is
 * only titles ('Miss') keeps its first word as the first name.
 */
export function splitName(name: string): {
  honorific: string
  firstName: string
  lastName: string
} {
  const words: string[] = []
  for (const w of name.trim().split(/\s+/)) {
    for (const part of partTitle(w)) if (part !== '') words.push(part)
  }
  let titles = 0
  while (titles < words.length && isHonorific(words[titles] ?? '')) titles++
  if (titles === words.length) titles = 0
  return {
    honorific: words.slice(0, titles).join(' '),
    firstName: words[titles] ?? '',
    lastName: words.slice(titles + 1).join(' '),
  }
}
