import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['src/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/lint/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The run's template databases, migrated and seeded once (tests/support/templates.ts).
    globalSetup: ['tests/support/global-setup.ts'],
  },
})
