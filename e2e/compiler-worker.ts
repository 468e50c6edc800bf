import { expect, type Page, type Worker } from '@playwright/test';

/**
 * The compiler worker the page talks to now: the newest live worker named `compiler`. It starts from a blob:
 * URL, so its URL does not tell it apart from the helpers it starts to read a large file in parts (named
 * `records-part`), and after a restart the page has had more than one.
 */
export async function compilerWorker(page: Page, timeout?: number): Promise<Worker> {
  let found: Worker | undefined;
  await expect
    .poll(
      async () => {
        found = undefined;
        for (const worker of page.workers().reverse()) {
          if ((await worker.evaluate(() => self.name).catch(() => null)) !== 'compiler') continue;
          found = worker;
          break;
        }
        return found !== undefined;
      },
      { timeout },
    )
    .toBe(true);
  if (!found) throw new Error('the compiler worker is not running');
  return found;
}
