import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = 3100;
const externalBaseURL = process.env.E2E_BASE_URL;
const baseURL = externalBaseURL ?? `http://localhost:${port}`;
// A fixed folder, wiped by the server command itself: this file is evaluated again in every worker.
const dataDir = path.join(os.tmpdir(), 'cxvet-e2e-data');

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  // limits for a busy two-core machine (CI's): a slow step passes, a wrong one still fails, only later
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    locale: 'es-MX',
    // a failure's picture and, in CI, a trace of its retry: recording a trace and a final screenshot of every test cost
    // a third of the suite's time on a two-core machine (48 tests: 452-474 s against 327 s); the screens a spec wants
    // kept it saves itself (fixtures.ts' shot)
    screenshot: 'only-on-failure',
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
  },
  projects: [
    { name: 'setup', testMatch: /auth\.setup\.ts/ },
    {
      name: 'chromium',
      dependencies: ['setup'],
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: { executablePath: '/usr/bin/chromium' },
      },
    },
  ],
  webServer: externalBaseURL
    ? undefined
    : {
        command: `rm -rf "${dataDir}" && exec node --import tsx src/server/main.ts`,
        url: `${baseURL}/api/health`,
        env: {
          PORT: String(port),
          DATA_DIR: dataDir,
          SEED_DEMO: '1',
          SIGN_IN_LIMIT_PER_MINUTE: '200',
          LOG_LEVEL: 'warn',
        },
        reuseExistingServer: !process.env.CI,
        timeout: 120_000,
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
