import type { ESLint, Rule } from 'eslint'

declare const plugin: ESLint.Plugin & {
  rules: {
    'no-like-column-pattern': Rule.RuleModule
    'no-sql-raw': Rule.RuleModule
  }
}

export default plugin
