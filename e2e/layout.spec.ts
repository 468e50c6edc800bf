import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Sums every layout shift not caused by input, from navigation until the compiled result has settled. */
async function layoutShiftOnLoad(page: Page, gotoAndWait: () => Promise<void>): Promise<number> {
  await page.addInitScript(() => {
    const record = window as unknown as { __layoutShift: number };
    record.__layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) record.__layoutShift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await gotoAndWait();
  // The trace's first page and the fonts land after the outcome: give them a moment, then read the total.
  await page.waitForTimeout(1_500);
  return page.evaluate(() => (window as unknown as { __layoutShift: number }).__layoutShift);
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
]) {
  test.describe(`${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('layout shift while loading stays under 0.1 (the space is reserved)', async ({ app, page }) => {
      const shift = await layoutShiftOnLoad(page, () => app.goto());
      expect(shift).toBeLessThan(0.1);
    });
  });
}

test.describe('the fire drill in its own view', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('starts near the top, and its controls and the verdict stay in view together', async ({ app, page }) => {
    await app.goto();
    await app.openWorkspace('Fire drill');
    const top = (await app.drill.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    expect(top, 'the drill starts near the top of a 900 px screen').toBeLessThan(320);
    await app.drill.getByRole('button', { name: 'Freeze receipt' }).click();
    await app.drill.getByRole('button', { name: 'Inject late change' }).click();
    await app.drill.getByRole('button', { name: 'Attempt to continue' }).click();
    await expect(app.drill.getByTestId('drill-headline')).toHaveText('STALE — RECOMPILE REQUIRED');
    for (const name of ['Freeze receipt', 'Inject late change', 'Attempt to continue', 'Recompile current context']) await expect(app.drill.getByRole('button', { name })).toBeInViewport();
    // The verdict's headline, code and first difference are in view; the rest of its diff may scroll.
    for (const id of ['drill-headline', 'drill-code', 'diff-first']) await expect(app.drill.getByTestId(id)).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('drill-current')).toBeInViewport();
    await expect(app.auditReceipt).toBeInViewport();
  });
});

test.describe('the trace below 1100 px: one card per record', () => {
  for (const viewport of [
    { width: 1000, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`${viewport.width} px: every field of a record is labelled, on screen and whole`, async ({ app, page }) => {
      await page.setViewportSize(viewport);
      await app.goto();
      await page.getByRole('tab', { name: 'Trace' }).click();
      const table = page.getByRole('table', { name: 'Trace' });
      await expect(table).toHaveClass(/\bcards\b/);
      const card = app.traceRow('RUN-0866');
      await page.getByRole('searchbox', { name: 'Search trace' }).fill('RUN-0866');
      await expect(card).toBeVisible();
      const box = await card.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width, 'the card fits the screen width').toBe(true);
      const fact = card.locator('.trace-fact');
      await expect(fact).toContainText('content hash sha256:');
      // The whole fact is laid out: nothing clipped, no tooltip needed.
      expect(await fact.evaluate((element) => element.scrollHeight <= element.clientHeight + 1 && element.scrollWidth <= element.clientWidth + 1)).toBe(true);
      const labels = await card.getByRole('cell').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
      expect(labels).toEqual(['"Id"', '"Decision"', '"Reason"', '"Boundary fact"', '"Tokens"', '"Required"', '"Rank · score"']);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  }

  test('at 1280 px the trace rail is too narrow for seven columns, so it shows cards too; at 1440 px the table shows every column whole', async ({ app, page }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await app.goto();
    await expect(page.getByRole('table', { name: 'Trace' })).toHaveClass(/\bcards\b/);
    await page.setViewportSize({ width: 1440, height: 900 });
    const table = page.getByRole('table', { name: 'Trace' });
    await expect(table).not.toHaveClass(/\bcards\b/);
    const tableBox = await table.boundingBox();
    const headers = await table.getByRole('columnheader').evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().right));
    expect(headers).toHaveLength(7);
    for (const right of headers) expect(right).toBeLessThanOrEqual((tableBox?.x ?? 0) + (tableBox?.width ?? 0) + 0.5);
  });
});

test('says when the app is ready offline, and offers Install when the browser does', async ({ app, page }) => {
  await app.goto();
  await expect(page.getByTestId('offline-status')).toHaveText('Ready to work offline');
  await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0);
  // Headless Chromium never offers installation; the event it would fire is played here.
  await page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true });
    Object.assign(event, {
      prompt: async () => {
        (window as unknown as { __installPrompted: boolean }).__installPrompted = true;
      },
      userChoice: Promise.resolve({ outcome: 'accepted' }),
    });
    window.dispatchEvent(event);
  });
  await page.getByRole('button', { name: 'Install app' }).click();
  expect(await page.evaluate(() => (window as unknown as { __installPrompted?: boolean }).__installPrompted)).toBe(true);
  await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0);
});
