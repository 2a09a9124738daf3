import { RuleTester } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, it } from 'vitest'
import arogya from '../../eslint-rules/index.js'

RuleTester.describe = describe
RuleTester.it = it
RuleTester.itOnly = it.only

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
})

const columnPattern = [{ messageId: 'columnPattern' }]

tester.run('no-like-column-pattern', arogya.rules['no-like-column-pattern'], {
  valid: [
    // The shapes patient search uses: the column on the left, the caller's pattern bound.
    'ilike(patients.name, pattern)',
    'ilike(patients.email, containsPattern(search))',
    'notIlike(patients.name, `%${needle}%`)',
    'sql`${patients.phone} like ${containsPattern(phoneNeedle)}`',
    "sql`${patients.name} || ''`",
    'sql`select 1`',
    "sql`${patients.name} ilike ${'%' + x + '%'}`",
    // A column after other operators, or LIKE text inside a longer word, is not a pattern.
    'sql`${a} = ${t.col}`',
    'sql`unlike_count = ${t.col}`',
    // Not drizzle-orm's helper or not a sql template.
    'other(x, patients.name)',
    'raw`${a} ilike ${t.col}`',
  ],
  invalid: [
    { code: 'ilike(x, patients.name)', errors: columnPattern },
    { code: 'like(x, patients.name)', errors: columnPattern },
    { code: 'notLike(x, t.col)', errors: columnPattern },
    { code: 'notIlike(x, sql`${t.col}`)', errors: columnPattern },
    { code: 'ilike(x, patients.name as unknown as string)', errors: columnPattern },
    {
      code: "import { ilike as matches } from 'drizzle-orm'\nmatches(x, patients.name)",
      errors: columnPattern,
    },
    { code: 'sql`${pattern} ilike ${patients.name}`', errors: columnPattern },
    { code: "sql`'a' LIKE ${t.col}`", errors: columnPattern },
    { code: 'sql`${a} NOT ILIKE ${t.col}`', errors: columnPattern },
    { code: 'sql`${a} similar  to ${t.col}`', errors: columnPattern },
    { code: 'sql`${a} ~* ${t.col}`', errors: columnPattern },
    { code: 'sql`${a} !~ ${t.col}`', errors: columnPattern },
    {
      code: 'sql`${t.a} like ${p} or ${q} ilike ${t.b}`',
      errors: [{ messageId: 'columnPattern', column: 38 }],
    },
  ],
})

tester.run('no-sql-raw', arogya.rules['no-sql-raw'], {
  valid: ['sql`select ${x}`', 'other.raw("x")', 'sql.join(parts, sql`, `)', 'raw("x")'],
  invalid: [
    { code: "sql.raw('x')", errors: [{ messageId: 'sqlRaw' }] },
    { code: "sql['raw'](`select ${x}`)", errors: [{ messageId: 'sqlRaw' }] },
    { code: 'const splice = sql.raw', errors: [{ messageId: 'sqlRaw' }] },
  ],
})
