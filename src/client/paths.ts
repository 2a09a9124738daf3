import { appPaths } from '@/shared/app-routes'

/**
 * Every route path of the client, in one place (spec section 2, route table; the pages live
 * in shared/app-routes so the server knows them too).
 */
export const paths = appPaths

/** Server-handled browser navigations. */
export const serverPaths = {
  login: '/api/login',
  signup: '/api/login?signup=1',
  logout: '/api/logout',
} as const
