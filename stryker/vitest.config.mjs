// The Vitest config Stryker runs a group with: the project's config, with `include` narrowed to
// the group's test files (stryker/groups.mjs). A narrowed `include` rather than Stryker's
// `testFiles` option: with `testFiles`, Stryker 9.6.1 activates static mutants (values built
// when a module loads, like a permission table or a zod schema) only after the module has
// loaded, so they all "survive" (stryker-js issue 6144).
import base from '../vitest.config'
import { groups } from './groups.mjs'

const group = groups[process.env.MUTATION_GROUP ?? '']
if (!group) throw new Error('MUTATION_GROUP must name a group of stryker/groups.mjs')

// Not mergeConfig: it would add the group's files to the project's `include`, not replace it.
export default { ...base, test: { ...base.test, include: group.testFiles } }
