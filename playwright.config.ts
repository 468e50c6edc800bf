import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './e2e/chromium';

/** The suite runs against the built app under a sub-path, as GitHub Pages serves it. */
export const BASE_PATH = '/some-repo/';
/** Overridable so a second checkout can run the suite beside this one without a port clash. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4317);

/** CHROMIUM_PATH, else Playwright's own Chromium, else Debian's (e2e/chromium.ts). Flags keep it off the network. */
export const CHROMIUM_LAUNCH = {
  executablePath: chromiumExecutable(),
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}${BASE_PATH}`,
    launchOptions: CHROMIUM_LAUNCH,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `npx vite preview --base ${BASE_PATH} --port ${E2E_PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${E2E_PORT}${BASE_PATH}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
