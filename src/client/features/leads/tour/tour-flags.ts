/** Local browser flags (spec section 3): the value is the string 'true' when set. */
export const TOUR_COMPLETED_KEY = 'arogya.tutorial.completed'
export const TOUR_DISMISSED_KEY = 'arogya.tutorial.dismissed'

function read(key: string): boolean {
  try {
    return localStorage.getItem(key) === 'true'
  } catch {
    return false // storage blocked
  }
}

function write(key: string, value: boolean): void {
  try {
    if (value) localStorage.setItem(key, 'true')
    else localStorage.removeItem(key)
  } catch {
    // storage blocked: the choice lasts until reload
  }
}

export const tourFlags = {
  /** Neither completed nor dismissed: the welcome card may show. */
  isFresh: () => !read(TOUR_COMPLETED_KEY) && !read(TOUR_DISMISSED_KEY),
  complete: () => write(TOUR_COMPLETED_KEY, true),
  dismiss: () => write(TOUR_DISMISSED_KEY, true),
  /** Reset clears both (spec section 4). */
  reset: () => {
    write(TOUR_COMPLETED_KEY, false)
    write(TOUR_DISMISSED_KEY, false)
  },
}
