import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type AppPath, appPaths } from '../../../shared/app-routes'
import { escapeHtml } from './head'

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>

/**
 * What a signed-in screen needs before it can show anything: its client modules (as Vite's
 * manifest names them, root src/client) and the API reads it makes first. Without this the
 * browser finds them one after another (entry → app → who is signed in → shell → page → its
 * data); with it the HTML asks for all of them at once (docs/decisions/038).
 *
 * The data URLs are exactly what the page's first queries request (same path and query), so the
 * browser hands the preloaded answer to the page's fetch; tests/e2e/staff-preloads.spec.ts fails
 * when one drifts.
 */
interface StaffPage {
  modules: readonly string[]
  data: readonly string[]
}

/** Every signed-in screen: the app, the staff shell, its user menu and toasts, who is signed in. */
const shell: StaffPage = {
  modules: ['app.tsx', 'staff-app.tsx', 'components/layout/user-menu.tsx', 'toaster.tsx'],
  data: ['/api/auth/user', '/api/me/preferences'],
}

const leadsDashboard: StaffPage = {
  modules: ['features/leads/leads-page.tsx'],
  data: ['/api/stats', '/api/leads?limit=30', '/api/messaging/unread'],
}

export const staffPages: Partial<Record<AppPath, StaffPage>> = {
  [appPaths.home]: {
    modules: ['features/dashboard/home-page.tsx'],
    data: ['/api/stats', '/api/leads?limit=5'],
  },
  [appPaths.dashboard]: leadsDashboard,
  [appPaths.leads]: leadsDashboard,
  [appPaths.patients]: {
    modules: ['features/patients/patients-page.tsx'],
    data: ['/api/patients?sort=recent&limit=30&count=1'],
  },
  [appPaths.settings]: {
    modules: ['features/settings/settings-page.tsx'],
    // The General tab opens first, for every role. The Integrations cards' reads are an admin's
    // only: preloading them made a receptionist's browser ask and get 403 (issue 40 item 17).
    data: ['/api/settings'],
  },
  [appPaths.appointments]: { modules: ['features/appointments/appointments-page.tsx'], data: [] },
  [appPaths.billing]: { modules: ['features/billing/billing-page.tsx'], data: [] },
  [appPaths.manualPatient]: { modules: ['features/patients/manual-patient-page.tsx'], data: [] },
  [appPaths.admin]: { modules: ['features/team/admin-page.tsx'], data: [] },
  // Its reads are an admin's only (backup:manage): other members would preload a 403.
  [appPaths.backup]: { modules: ['features/backup/backup-page.tsx'], data: [] },
  [appPaths.liveMonitoring]: {
    modules: ['features/live-monitoring/live-monitoring-page.tsx'],
    data: [
      '/api/live-monitoring/overview',
      '/api/live-monitoring/online-users',
      '/api/live-monitoring/activities?limit=20',
      '/api/live-monitoring/daily-summary',
    ],
  },
}

function closure(manifest: Manifest, key: string, seen: Set<string>): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen
  seen.add(key)
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, seen)
  return seen
}

/**
 * A screen's head tags: `member` for a hospital member (chunks and first reads), `modules` for
 * anyone else with a session (a platform account, or one that must enrol two-factor first),
 * who is shown a panel instead of the hospital's data and so must not ask for it.
 */
export interface StaffTags {
  member: string
  modules: string
}

/**
 * For each signed-in screen, the head tags that fetch its modules and first data in parallel:
 * modulepreload for the chunks beyond the entry, and `preload as=fetch` with credentials (the
 * api client sends `credentials: 'include'`, which the link's crossorigin must match).
 */
export function staffHeadTags(clientDir: string): Map<string, StaffTags> {
  const tags = new Map<string, StaffTags>()
  const file = join(clientDir, '.vite/manifest.json')
  if (!existsSync(file)) return tags
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry)
  const loaded = entry ? closure(manifest, entry, new Set()) : new Set<string>()
  for (const [path, page] of Object.entries(staffPages)) {
    const keys = new Set<string>()
    for (const m of [...shell.modules, ...page.modules]) closure(manifest, m, keys)
    const scripts = [...keys]
      .filter((k) => !loaded.has(k))
      .flatMap((k) => (manifest[k]?.file.endsWith('.js') ? [`/${manifest[k].file}`] : []))
    const reads = [...shell.data, ...page.data].map(
      (href) =>
        `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${escapeHtml(href)}" />`,
    )
    const modules = scripts.map(
      (href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}" />`,
    )
    tags.set(path, {
      member: [...reads, ...modules].join('\n    '),
      modules: modules.join('\n    '),
    })
  }
  return tags
}

/**
 * What a signed-in screen shows before any script has run: the same page-sized spinner as the
 * client's FullPageSpinner (components/ui/full-page-spinner.tsx, lucide's loader-circle), so the
 * first paint is the HTML's, not the last chunk's. React replaces it on its first render.
 */
export const STAFF_FIRST_PAINT =
  '<div class="flex min-h-screen items-center justify-center"><span role="status" aria-label="Loading" class="inline-flex"><svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="size-8 animate-spin text-brand-700" aria-hidden="true"><path d="M21 12a9 9 0 1 1-6.219-8.56"></path></svg></span></div>'

/** index.html with a signed-in screen's preload tags at the end of its head and its first paint. */
export function withStaffTags(html: string, tags: string | undefined): string {
  return tags
    ? html
        .replace('</head>', `  ${tags}\n  </head>`)
        .replace('<div id="root"></div>', `<div id="root">${STAFF_FIRST_PAINT}</div>`)
    : html
}
