/** Every route path of the client, in one place (spec section 2, route table). */
export const paths = {
  home: '/',
  dashboard: '/dashboard',
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
  superAdmin: '/super-admin',
  pricing: '/pricing',
  addOns: '/add-ons',
  login: '/login',
  leads: '/leads',
} as const

/** Server-handled browser navigations. */
export const serverPaths = {
  login: '/api/login',
  signup: '/api/login?signup=1',
  logout: '/api/logout',
} as const
