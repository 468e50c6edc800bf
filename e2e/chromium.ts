import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/**
 * Which Chromium the browser tests launch: the one CHROMIUM_PATH names; else Playwright's own, when
 * `npx playwright install chromium` has put it in place (macOS, Windows, most Linux); else Debian's
 * /usr/bin/chromium (machines where Playwright cannot download a browser). scripts/ensure-chromium.sh
 * makes sure one of them exists before `npm test` reaches the browser tests.
 */
export function chromiumExecutable(): string | undefined {
  const named = process.env.CHROMIUM_PATH;
  if (named !== undefined && named !== '') return named;
  if (existsSync(chromium.executablePath())) return undefined;
  return '/usr/bin/chromium';
}
