/**
 * Every page route of the single-page app (spec section 2, route table), shared so the client
 * routes them and the server knows which paths are pages (200) and which are not (404).
 */
export const appPaths = {
  home: '/',
  dashboard: '/dashboard',
  leads: '/leads',
  appointments: '/appointments',
  patients: '/patients',
  manualPatient: '/manual-patient',
  billing: '/billing',
  campaigns: '/campaigns',
  leadGeneration: '/lead-generation',
  liveMonitoring: '/live-monitoring',
  faqs: '/faqs',
  support: '/support',
  backup: '/backup',
  admin: '/admin',
  settings: '/settings',
  sandboxOutbox: '/messaging/sandbox',
  superAdmin: '/super-admin',
  pricing: '/pricing',
  addOns: '/add-ons',
  login: '/login',
  /** A team invitation's acceptance page (issue 27; the token is in the #fragment). */
  invite: '/invite',
  /** Password reset (issue 40, item 7): ask for a link; the link's page (token in the #fragment). */
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
} as const

export type AppPath = (typeof appPaths)[keyof typeof appPaths]

const allPaths: readonly AppPath[] = Object.values(appPaths)

/** Pages a signed-out visitor sees as they are (the marketing site and sign-in). */
export const publicPaths: readonly AppPath[] = [
  appPaths.home,
  appPaths.pricing,
  appPaths.addOns,
  appPaths.login,
  appPaths.invite,
  appPaths.forgotPassword,
  appPaths.resetPassword,
]

/**
 * The page a path names, matched as the client router does (wouter: any letter case, one
 * optional trailing slash), or undefined when the app has no such page.
 */
export function matchAppPath(pathname: string): AppPath | undefined {
  const clean = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname
  const lower = clean.toLowerCase()
  return allPaths.find((p) => p === lower)
}

/** Whether opening the path signed out should go to sign-in first (a staff screen). */
export function requiresSignIn(pathname: string): boolean {
  const path = matchAppPath(pathname)
  return path !== undefined && !publicPaths.includes(path)
}
