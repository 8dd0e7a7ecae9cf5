import { defineConfig } from '@playwright/test';
import { BASE_URL_ENV } from './support/env';

const CI = Boolean(process.env.CI);

/**
 * The browser tests run against the real portal (identity + gateway + shell + the test remote) that the
 * global setup starts on free ports with a throwaway database; Debian's Chromium, headless.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  globalTeardown: './support/global-teardown.ts',
  workers: CI ? 1 : undefined,
  retries: CI ? 1 : 0,
  forbidOnly: CI,
  reporter: 'list',
  use: {
    // Set by the global setup; the workers, which start after it, read it here.
    baseURL: process.env[BASE_URL_ENV],
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      // Playwright's own browser download is not available here: Debian's chromium package instead.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'on-first-retry',
  },
});
