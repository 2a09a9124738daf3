const count = new Intl.NumberFormat('en-IN')

/**
 * "1 patient", "2 patients", "1,250 leads": a count and its noun, singular only for exactly 1
 * (issue 40: never "patient(s)" or "1 comments"). `many` for nouns that do not just add an s.
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count.format(n)} ${n === 1 ? one : many}`
}
