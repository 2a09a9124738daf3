import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import arogya from './eslint-rules/index.js'

export default tseslint.config(
  { ignores: ['dist', 'drizzle', 'data', 'node_modules', 'test-results', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    // SQL shapes that docs/decisions/004 (LEAKPROOF LIKE under RLS) relies on.
    files: ['src/**/*.ts'],
    plugins: { arogya },
    rules: {
      'arogya/no-like-column-pattern': 'error',
      'arogya/no-sql-raw': 'error',
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', '**/server/**', '**/client/**', '@/server/*', '@/client/*'], message: 'shared imports nothing of ours and no node: modules' }] },
      ],
    },
  },
  {
    files: ['src/client/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '@/server/*'], message: 'the client never imports server code' }] },
      ],
    },
  },
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: globals.node } },
)
