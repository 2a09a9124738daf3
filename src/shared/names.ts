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
  return honorifics.has(word.toLowerCase().replace(/[.,()]/g, ''))
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
  // 'Dr.Meera' is written as one word: part the title from the name.
  const words = name
    .trim()
    .split(/\s+/)
    .flatMap((w) => {
      const joined = /^([^.\s]+\.)(\p{L}\S*)$/u.exec(w)
      return joined && isHonorific(joined[1] ?? '') && !isHonorific(joined[2] ?? '')
        ? [joined[1] ?? '', joined[2] ?? '']
        : [w]
    })
    .filter((w) => w !== '')
  let titles = 0
  while (titles < words.length && isHonorific(words[titles] ?? '')) titles++
  if (titles === words.length) titles = 0
  return {
    honorific: words.slice(0, titles).join(' '),
    firstName: words[titles] ?? '',
    lastName: words.slice(titles + 1).join(' '),
  }
}
