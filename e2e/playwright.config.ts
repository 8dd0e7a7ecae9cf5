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
  // A test walks whole flows through the real portal (several browsers, services, workers): 20–25 s on an
  // idle 2-core machine, so Playwright's default 30 s leaves too little room on a busy one.
  timeout: 90_000,
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
