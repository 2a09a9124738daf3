// The Vitest config Stryker runs a group with: the project's config, with `include` narrowed to
// the group's test files (stryker/groups.mjs). A narrowed `include` rather than Stryker's
// `testFiles` option: with `testFiles`, Stryker 9.6.1 activates static mutants (values built
// when a module loads, like a permission table or a zod schema) only after the module has
// loaded, so they all "survive" (stryker-js issue 6144).
import { relative } from 'node:path'
import { BaseSequencer } from 'vitest/node'
import base from '../vitest.config'
import { groups } from './groups.mjs'

const group = groups[process.env.MUTATION_GROUP ?? '']
if (!group) throw new Error('MUTATION_GROUP must name a group of stryker/groups.mjs')

/** Index of the first testFiles pattern a file matches (unit tests are listed first). */
function rank(moduleId) {
  const file = relative(process.cwd(), moduleId)
  const index = group.testFiles.findIndex((pattern) => globToRegExp(pattern).test(file))
  return index === -1 ? group.testFiles.length : index
}

function globToRegExp(glob) {
  const source = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*')
  return new RegExp(`^${source}$`)
}

/**
 * Files in the group's order, not Vitest's (slowest first): Stryker stops a run at the first
 * failing test, so a mutant the fast unit tests kill costs no app build.
 */
class GroupOrder extends BaseSequencer {
  async sort(files) {
    return [...files].sort(
      (a, b) => rank(a.moduleId) - rank(b.moduleId) || a.moduleId.localeCompare(b.moduleId),
    )
  }
}

// Not mergeConfig: it would add the group's files to the project's `include`, not replace it.
export default {
  ...base,
  test: { ...base.test, include: group.testFiles, sequence: { sequencer: GroupOrder } },
}
