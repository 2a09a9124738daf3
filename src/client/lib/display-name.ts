import { isHonorific } from '@/shared/names'
import type { CurrentUser } from '@/shared/schemas/auth'

type Named = Pick<CurrentUser, 'firstName' | 'lastName' | 'username'>

/** The words of a name that are not titles ('Dr. Rajesh Iyer' gives Rajesh, Iyer). */
function realWords(name: string | null): string[] {
  return (name ?? '').split(/\s+/).filter((w) => w !== '' && !isHonorific(w))
}

/**
 * What the app calls the user (spec: firstName, else username, else 'User'). Titles are left
 * out of the first name, and a first name that is only a title ('Dr.', from a sign-up as
 * 'Dr. Kavita Joshi') gives way to the next word of the name.
 */
export function displayName(user: Named): string {
  if (user.firstName?.trim()) {
    const first = realWords(user.firstName)
    const name = first.length ? first.join(' ') : realWords(user.lastName)[0]
    if (name) return name
  }
  return user.username?.trim() || 'User'
}

/** One or two letters for the avatar ('Rajesh Iyer' gives 'RI'). */
export function initialsOf(user: Named & { email: string }): string {
  const words = [...realWords(user.firstName), ...realWords(user.lastName)]
  // By code point, so a letter outside the Basic Multilingual Plane is not cut in half.
  const initial = (word: string | undefined) => Array.from(word ?? '')[0] ?? ''
  const letters = words.length
    ? `${initial(words[0])}${words.length > 1 ? initial(words.at(-1)) : ''}`
    : initial(user.username ?? user.email)
  return letters.toUpperCase() || '?'
}

/** The full name for the account menu, titles kept ('Dr. Rajesh Iyer'). */
export function fullName(user: Named): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim()
  return name || user.username?.trim() || 'User'
}
