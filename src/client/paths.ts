import { appPaths } from '@/shared/app-routes'

/**
 * Every route path of the client, in one place (spec section 2, route table; the pages live
 * in shared/app-routes so the server knows them too).
 */
export const paths = appPaths

/**
 * A hospital's public booking page (issue 26). Not in appPaths: its slug varies, and the server
 * serves it itself (modules/booking/booking-html.ts: 200 when the page is on, 404 when off).
 */
export const bookingPath = '/book/:slug'
export const bookingHref = (slug: string) => `/book/${encodeURIComponent(slug)}`

/** Server-handled browser navigations. */
export const serverPaths = {
  login: '/api/login',
  signup: '/api/login?signup=1',
  logout: '/api/logout',
} as const
