import { defineConfig } from '@playwright/test';
import { BASE_PATH, CHROMIUM_LAUNCH } from './playwright.config';

/** Its own port and build folder, so the benchmark can run beside the acceptance suite and a dev build. */
export const BENCH_PORT = Number(process.env.BENCH_PORT ?? 4517);
export const BENCH_DIST = 'bench/browser/.dist';

export default defineConfig({
  testDir: 'bench/browser',
  testMatch: '*.bench.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Generating, loading and scrolling 100,000 records takes minutes on a shared 2-core machine.
  timeout: 20 * 60_000,
  expect: { timeout: 120_000 },
  reporter: [['list']],
  outputDir: 'test-results/bench',
  use: {
    baseURL: `http://127.0.0.1:${BENCH_PORT}${BASE_PATH}`,
    launchOptions: CHROMIUM_LAUNCH,
    viewport: { width: 1600, height: 1000 },
    // The service worker's precache would fetch every asset during the load being measured.
    serviceWorkers: 'block',
    trace: 'off',
  },
  webServer: {
    command: `npx vite build --outDir ${BENCH_DIST} --emptyOutDir && npx vite preview --outDir ${BENCH_DIST} --base ${BASE_PATH} --port ${BENCH_PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${BENCH_PORT}${BASE_PATH}`,
    reuseExistingServer: false,
    timeout: 180_000,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
