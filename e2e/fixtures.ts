import { readFileSync } from 'node:fs';
import { test as base, expect } from '@playwright/test';
import { ContextCompilerPage } from 'context-compiler/playwright';
import { E2E_PORT } from '../playwright.config';

/** The origin `playwright.config.ts` serves the built app from; nothing else may be contacted. */
export const APP_ORIGIN = `http://127.0.0.1:${E2E_PORT}`;

/** A file as the page would receive it from a drop or a file picker. */
export interface FilePayload {
  readonly name: string;
  readonly mimeType: string;
  readonly text: string;
}

/** A file from `e2e/fixtures-data/`, typed by its extension as a browser would. */
export function fixtureFile(name: string): FilePayload {
  const text = readFileSync(new URL(`./fixtures-data/${name}`, import.meta.url), 'utf8');
  return { name, mimeType: name.endsWith('.jsonl') ? 'application/jsonl' : 'application/json', text };
}

/**
 * The app as the specs drive it: the page object the package exports to users' acceptance runs, through that export.
 */
export { ContextCompilerPage as AppPage };

interface GuardOptions {
  /** Origins a test may contact; a spec that serves the app elsewhere overrides it. */
  allowedOrigins: readonly string[];
}

interface Fixtures {
  offOriginGuard: void;
  app: ContextCompilerPage;
}

const CSP_CONSOLE = /content security policy/i;

/**
 * Every test fails if the page contacts another origin, reports a CSP violation (DOM event or
 * console message) or throws an uncaught error: an offline, CSP-locked app must do none of these.
 */
export const test = base.extend<Fixtures & GuardOptions>({
  allowedOrigins: [[APP_ORIGIN], { option: true }],
  offOriginGuard: [
    async ({ context, allowedOrigins }, use) => {
      const problems: string[] = [];
      context.on('request', (request) => {
        const url = request.url();
        // data: URLs never touch the network; blob: URLs carry the origin that made them.
        if (url.startsWith('data:')) return;
        if (!allowedOrigins.includes(new URL(url).origin))
          problems.push(`request left the origin: ${request.method()} ${url}`);
      });
      context.on('console', (message) => {
        if (CSP_CONSOLE.test(message.text())) problems.push(`console: ${message.text()}`);
      });
      context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`));
      await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
        problems.push(`securitypolicyviolation: ${text}`);
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
          report(`${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
        });
      });
      await use();
      expect(problems, 'off-origin requests, CSP violations and page errors').toEqual([]);
    },
    { auto: true },
  ],
  app: async ({ page }, use) => {
    await use(new ContextCompilerPage(page));
  },
});

export { expect };
