// A Stryker ignore-plugin for the services group (docs/decisions/024-mutation-testing.md):
// in src/server/modules/**/*.service.ts only the cross-tenant paths are mutated. Everything
// else in those files (messages, formatting, plan arithmetic, audit wording, module-level
// constants) is ignored, so the group's score speaks of tenant isolation only.
//
// A top-level function (or exported const arrow) is on a cross-tenant path when it
// - answers 404 for a row that is missing or another hospital's (notFound, NOT_FOUND), or
// - runs in a hospital (withTenant, a hospitalId) and finds a row by its id or its hospital.
// The rule reads the function's source, so it keeps working while the services change, and
// needs no `// Stryker disable` comments in their files.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin'

const ANSWERS_404 = /\bnotFound\(|['"]NOT_FOUND['"]/
const IN_A_HOSPITAL = /\bwithTenant\(|\bhospitalId\b|\bhospital_id\b/
const BY_ID =
  /\beq\(\s*[\w.]+\.(id|hospitalId)\s*,|\binArray\(\s*[\w.]+\.id\s*,|\.(id|hospitalId)\}\s*=\s*\$\{|\b(id|hospital_id)\s*=\s*\$\{/

const REASON = 'not a cross-tenant path (stryker/cross-tenant-ignorer.mjs)'

/** True for the source text of a function that looks rows up by id within a hospital. */
export function isCrossTenantPath(text) {
  return ANSWERS_404.test(text) || (IN_A_HOSPITAL.test(text) && BY_ID.test(text))
}

function isServiceFile(path) {
  const name = path.hub?.file?.opts?.filename ?? ''
  return /\.service\.ts$/.test(name)
}

/** The source text of a node (Babel keeps the file's code on the hub). */
function sourceOf(path) {
  const code = path.hub?.file?.code
  const { start, end } = path.node
  return typeof code === 'string' && start != null && end != null ? code.slice(start, end) : ''
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'cross-tenant', {
    shouldIgnore(path) {
      // Decide once per top-level statement of a service file; its children follow it.
      if (!path.parentPath?.isProgram?.() || !isServiceFile(path)) return undefined
      return isCrossTenantPath(sourceOf(path)) ? undefined : REASON
    },
  }),
]
