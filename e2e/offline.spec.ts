import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from '@playwright/test';
import { BASE_PATH } from '../playwright.config';
import { expect, test as base } from './fixtures';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface PreviewServer {
  readonly url: string;
  /** Stops the server and waits until its port refuses connections. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  await expect.poll(condition, { message: what, timeout: 60_000 }).toBe(true);
}

/** Its own `vite preview` of dist/, so this spec can take the server away without touching the suite's. */
async function startPreview(): Promise<PreviewServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${BASE_PATH}`;
  // detached: the server gets its own process group, so stopping it stops vite's children too.
  const child: ChildProcess = spawn(
    process.execPath,
    [
      'node_modules/vite/bin/vite.js',
      'preview',
      '--base',
      BASE_PATH,
      '--port',
      String(port),
      '--strictPort',
      '--host',
      '127.0.0.1',
    ],
    {
      cwd: ROOT,
      detached: true,
      stdio: 'ignore',
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await until(() => answers(url), `vite preview answering at ${url}`);
  return {
    url,
    async stop() {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
      await until(async () => !(await answers(url)), `vite preview at ${url} gone`);
    },
  };
}

const test = base.extend<{ preview: PreviewServer }>({
  preview: async ({}, use) => {
    const server = await startPreview();
    await use(server);
    await server.stop();
  },
  allowedOrigins: async ({ preview }, use) => {
    await use([new URL(preview.url).origin]);
  },
});

test('after one visit the app loads and compiles from the service worker with the server gone', async ({
  app,
  page,
  context,
  preview,
}) => {
  const failed: string[] = [];
  context.on('requestfailed', (request: Request) =>
    failed.push(`${request.url()}: ${request.failure()?.errorText ?? ''}`),
  );

  await page.goto(preview.url);
  await app.waitForCompiled();
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The page refreshes the host's redirect of the slash-less path in the HTTP cache while online.
  const slashless = preview.url.slice(0, -1);
  const redirectRefreshed = () =>
    page.evaluate((url) => performance.getEntriesByType('resource').some((entry) => entry.name === url), slashless);
  // The first visit's worker takes control without a reload (clientsClaim), and only then is the page called ready.
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
  await expect(page.getByTestId('offline-status')).toHaveText('Ready to work offline');
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'controlled on the first visit').toBe(
    true,
  );
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
  await expect(page.getByTestId('offline-status')).toHaveText('Ready to work offline');
  await expect.poll(redirectRefreshed).toBe(true);
  expect(failed, 'requests that failed while online').toEqual([]);

  await preview.stop();
  expect(await answers(preview.url), 'server is unreachable').toBe(false);
  // Offline, the page's refresh of the slash-less redirect fails by design (and the cached one is kept).
  const refreshOf = `${slashless}: net::ERR_CONNECTION_REFUSED`;
  const offlineFailures = () => failed.filter((failure) => failure !== refreshOf);

  const wasm: Response[] = [];
  context.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('.wasm')) wasm.push(response);
  });
  await page.reload();
  await app.waitForCompiled();
  await expect(app.scenarioPicker).toHaveValue('retry-policy');
  await expect(app.auditOutcome).toHaveText('Packet emitted');
  await expect(app.auditBudget).toHaveText('74 / 96 tokens');
  await expect(app.entry('compiled', 'ADR-0234')).toBeVisible();
  await expect(app.tokens('naive')).toHaveText('90 / 96 tokens');

  // SQLite's wasm came from the precache: answered by the service worker, and nothing failed.
  expect(wasm.length, 'sqlite wasm requested after the reload').toBeGreaterThan(0);
  for (const response of wasm) {
    expect(response.fromServiceWorker(), response.url()).toBe(true);
    expect(response.status(), response.url()).toBe(200);
  }
  expect(offlineFailures(), 'requests that failed offline').toEqual([]);

  // The sub-path without its trailing slash is outside the service worker's scope: the cached 301 takes it to the app.
  await page.goto(slashless);
  await app.waitForCompiled();
  expect(page.url()).toBe(preview.url);
  await expect(app.auditBudget).toHaveText('74 / 96 tokens');
  expect(offlineFailures(), 'requests that failed offline').toEqual([]);
});

test('online, the sub-path without its trailing slash redirects to the app, as the host does', async ({
  app,
  page,
  preview,
}) => {
  await page.goto(preview.url.slice(0, -1));
  await app.waitForCompiled();
  expect(page.url()).toBe(preview.url);
});
