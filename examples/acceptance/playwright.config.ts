import { defineConfig } from '@playwright/test';

// Point CONTEXT_COMPILER_URL at the app wherever you serve it (a sub-path included, ending in a slash).
// Without it, this example serves the repository's own build (`npm run build` at the root first).
const PORT = Number(process.env.ACCEPTANCE_PORT ?? 4337);
const url = process.env.CONTEXT_COMPILER_URL ?? `http://127.0.0.1:${PORT}/acceptance/`;

export default defineConfig({
  testDir: 'tests',
  workers: 1,
  timeout: 90_000,
  reporter: [['list']],
  use: {
    baseURL: url,
    // Playwright's own Chromium when `npx playwright install chromium` has run; CHROMIUM_PATH names another.
    launchOptions: { executablePath: process.env.CHROMIUM_PATH || undefined, args: ['--headless', '--no-sandbox'] },
  },
  webServer:
    process.env.CONTEXT_COMPILER_URL === undefined
      ? {
          command: `cd ../.. && npx vite preview --base /acceptance/ --port ${PORT} --strictPort --host 127.0.0.1`,
          url,
          reuseExistingServer: false,
          timeout: 60_000,
        }
      : undefined,
});
