import { defineConfig, devices } from '@playwright/test'
import { providerPorts } from './tests/e2e/support/messaging-providers'

const port = Number(process.env.E2E_PORT ?? 5178)
// Separate runs on one machine each get their own port and data directory.
const dataDir = process.env.E2E_DATA_DIR ?? '.e2e-data'
// The fake Graph API (Meta) that the app calls instead of graph.facebook.com.
const graphPort = Number(process.env.E2E_GRAPH_PORT ?? port + 1)
// The messaging providers' fakes (Twilio, SendGrid, MSG91) on the next ports.
const providers = providerPorts(port)

/**
 * E2E in Debian's Chromium (/usr/bin/chromium): the real server on a fresh embedded
 * database with demo data, built client included.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // Two runs side by side (CI's two e2e lanes) each keep their own results.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // The run's database is fresh: the super admin enrols in two-factor first (that test is the
  // enrolment screen's own), and later super-admin sign-ins use the secret it recorded.
  projects: [
    {
      name: 'two-factor-enrolment',
      testMatch: '**/two-factor-enrolment.spec.ts',
      use: { ...devices['Desktop Chrome'] },
    },
    {
      name: 'chromium',
      testIgnore: '**/two-factor-enrolment.spec.ts',
      dependencies: ['two-factor-enrolment'],
      use: { ...devices['Desktop Chrome'] },
    },
  ],
  webServer: [
    {
      command: 'npx tsx tests/e2e/support/fake-graph-server.ts',
      // Any answer means it listens (a request without a token gets Graph's 400).
      url: `http://127.0.0.1:${graphPort}/v21.0/me`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { E2E_GRAPH_PORT: String(graphPort) },
    },
    {
      command: 'npx tsx tests/e2e/support/fake-messaging-server.ts',
      // Twilio's fake answers 401 to a request without its account's credentials.
      url: `http://127.0.0.1:${providers.twilio}/2010-04-01/Accounts/AC00000000000000000000000000000000/Messages.json`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { E2E_PORT: String(port) },
    },
    {
      command: `rm -rf ${dataDir} && node scripts/start.mjs`,
      url: `http://127.0.0.1:${port}/api/login`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        META_GRAPH_URL: `http://127.0.0.1:${graphPort}`,
        META_GRAPH_VERSION: 'v21.0',
        TWILIO_API_URL: `http://127.0.0.1:${providers.twilio}`,
        SENDGRID_API_URL: `http://127.0.0.1:${providers.sendgrid}`,
        MSG91_API_URL: `http://127.0.0.1:${providers.msg91}`,
        // Sandbox calls ring 1.5 s and talk 3 s (issue 41: tests/e2e/calls.spec.ts).
        VOICE_SANDBOX_RING_MS: '1500',
        VOICE_SANDBOX_TALK_MS: '3000',
      },
    },
  ],
})
