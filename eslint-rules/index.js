// Local ESLint rules that keep SQL in the shapes docs/decisions/004 relies on.
//
// Migration 0003 marks texticlike/textlike (ILIKE/LIKE) LEAKPROOF, so PostgreSQL may run them
// on another hospital's row before the row-level security policy filters it out. That is safe
// only while the pattern is the caller's own bound, well-formed value. A column on the pattern
// side lets a malformed pattern stored in another hospital's row (one ending in a lone
// backslash) raise an error, and that error tells the caller the row exists.

const LIKE_HELPERS = new Set(['like', 'ilike', 'notLike', 'notIlike'])

// Text before `${...}` in a sql template that puts the interpolation on a pattern side:
// LIKE, ILIKE, NOT LIKE, NOT ILIKE, SIMILAR TO, and the operators ~ ~* !~ !~* ~~ ~~* !~~ !~~*.
const PATTERN_KEYWORD = /\b(?:i?like|similar\s+to)\s*$/i
const PATTERN_OPERATOR = /~\*?\s*$/

const COLUMN_AS_PATTERN =
  "A column on the pattern side of LIKE/ILIKE lets another hospital's row raise an error before " +
  'row-level security filters it (see docs/decisions/004). Put the column on the left and pass ' +
  "the caller's own escaped pattern as a bound value."

/** Strips TypeScript-only wrappers (`x as T`, `x!`, `x satisfies T`) from an expression. */
function unwrap(node) {
  let current = node
  while (
    current &&
    (current.type === 'TSAsExpression' ||
      current.type === 'TSNonNullExpression' ||
      current.type === 'TSSatisfiesExpression' ||
      current.type === 'TSTypeAssertion')
  ) {
    current = current.expression
  }
  return current
}

function isSqlTag(node) {
  const tag = unwrap(node.tag)
  return tag?.type === 'Identifier' && tag.name === 'sql'
}

function isMember(node) {
  return unwrap(node)?.type === 'MemberExpression'
}

function propertyName(member) {
  if (!member.computed && member.property.type === 'Identifier') return member.property.name
  if (member.computed && member.property.type === 'Literal') return String(member.property.value)
  return undefined
}

/** @type {import('eslint').Rule.RuleModule} */
const noLikeColumnPattern = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow a column on the pattern side of LIKE/ILIKE (RLS error leak).' },
    schema: [],
    messages: { columnPattern: COLUMN_AS_PATTERN },
  },
  create(context) {
    // Local names of drizzle-orm's LIKE helpers, including renamed imports.
    const likeNames = new Set(LIKE_HELPERS)
    return {
      ImportDeclaration(node) {
        if (node.source.value !== 'drizzle-orm') return
        for (const spec of node.specifiers) {
          if (spec.type !== 'ImportSpecifier') continue
          const imported =
            spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value
          if (LIKE_HELPERS.has(imported)) likeNames.add(spec.local.name)
        }
      },
      CallExpression(node) {
        const callee = unwrap(node.callee)
        if (callee?.type !== 'Identifier' || !likeNames.has(callee.name)) return
        const pattern = unwrap(node.arguments[1])
        if (!pattern) return
        if (
          pattern.type === 'MemberExpression' ||
          (pattern.type === 'TaggedTemplateExpression' && isSqlTag(pattern))
        ) {
          context.report({ node: pattern, messageId: 'columnPattern' })
        }
      },
      TaggedTemplateExpression(node) {
        if (!isSqlTag(node)) return
        const { quasis, expressions } = node.quasi
        expressions.forEach((expression, i) => {
          const before = quasis[i].value.cooked ?? quasis[i].value.raw
          if (!isMember(expression)) return
          if (PATTERN_KEYWORD.test(before) || PATTERN_OPERATOR.test(before)) {
            context.report({ node: expression, messageId: 'columnPattern' })
          }
        })
      },
    }
  },
}

/** @type {import('eslint').Rule.RuleModule} */
const noSqlRaw = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow sql.raw(), which splices text into SQL unbound.' },
    schema: [],
    messages: {
      sqlRaw:
        'sql.raw() splices text into the statement without binding it. Use a bound sql`...` ' +
        'template (values become parameters) and drizzle column references instead.',
    },
  },
  create(context) {
    return {
      MemberExpression(node) {
        const object = unwrap(node.object)
        if (
          object?.type === 'Identifier' &&
          object.name === 'sql' &&
          propertyName(node) === 'raw'
        ) {
          context.report({ node, messageId: 'sqlRaw' })
        }
      },
    }
  },
}

/** The plugin: register as `arogya` and enable `arogya/no-like-column-pattern`, `arogya/no-sql-raw`. */
const plugin = {
  meta: { name: 'eslint-plugin-arogya' },
  rules: {
    'no-like-column-pattern': noLikeColumnPattern,
    'no-sql-raw': noSqlRaw,
  },
}

export default plugin
