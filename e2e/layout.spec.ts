import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Sums every layout shift not caused by input, from navigation until the compiled result has settled. */
async function layoutShiftOnLoad(page: Page, gotoAndWait: () => Promise<void>): Promise<number> {
  await page.addInitScript(() => {
    const record = window as unknown as { __layoutShift: number };
    record.__layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) record.__layoutShift += entry.value;
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
    for (const name of ['Freeze receipt', 'Inject late change', 'Attempt to continue', 'Recompile current context'])
      await expect(app.drill.getByRole('button', { name })).toBeInViewport();
    // The verdict's headline, code and first difference are in view; the rest of its diff may scroll.
    for (const id of ['drill-headline', 'drill-code', 'diff-first'])
      await expect(app.drill.getByTestId(id)).toBeInViewport({ ratio: 1 });
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
      expect(
        await fact.evaluate(
          (element) =>
            element.scrollHeight <= element.clientHeight + 1 && element.scrollWidth <= element.clientWidth + 1,
        ),
      ).toBe(true);
      const labels = await card
        .getByRole('cell')
        .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
      expect(labels).toEqual([
        '"Id"',
        '"Decision"',
        '"Reason"',
        '"Boundary fact"',
        '"Tokens"',
        '"Required"',
        '"Rank · score"',
      ]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  }

  test('at 1280 and 1440 px the table shows every column whole', async ({ app, page }) => {
    await app.goto();
    for (const viewport of [
      { width: 1280, height: 720 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(viewport);
      const table = page.getByRole('table', { name: 'Trace' });
      await expect(table).not.toHaveClass(/\bcards\b/);
      const tableBox = await table.boundingBox();
      const headers = await table
        .getByRole('columnheader')
        .evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().right));
      expect(headers).toHaveLength(7);
      for (const right of headers) expect(right).toBeLessThanOrEqual((tableBox?.x ?? 0) + (tableBox?.width ?? 0) + 0.5);
    }
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
  expect(await page.evaluate(() => (window as unknown as { __installPrompted?: boolean }).__installPrompted)).toBe(
    true,
  );
  await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0);
});

/** Every id and reason code on screen that is broken over two lines or cut off, by element geometry. */
async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.record-link, .code-link')]
      .filter((element) => element.getClientRects().length > 0)
      .filter((element) => {
        const lineHeight = parseFloat(getComputedStyle(element).lineHeight);
        return (
          element.scrollWidth > element.clientWidth + 1 || element.getBoundingClientRect().height > lineHeight * 1.5
        );
      })
      .map((element) => element.textContent ?? ''),
  );
}

/** Elements inside a packet column that stick out of it. */
async function overflowingColumns(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.packet-column')].flatMap((column) => {
      const box = column.getBoundingClientRect();
      return [...column.querySelectorAll<HTMLElement>('*')]
        .filter((element) => {
          const inner = element.getBoundingClientRect();
          return inner.width > 0 && (inner.left < box.left - 0.5 || inner.right > box.right + 0.5);
        })
        .map(
          (element) =>
            `${column.dataset.testid ?? ''}: ${element.className || element.tagName} ${element.textContent?.slice(0, 30) ?? ''}`,
        );
    }),
  );
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test.describe(`projector and laptop, ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('the three packets are side by side, readable and whole on the first screen', async ({ app, page }) => {
      await app.goto();
      await expect(app.traceCount).toHaveText(/^Showing/);
      const columns = await Promise.all(
        ['naive', 'post-filter', 'compiled'].map(async (kind) => page.getByTestId(`column-${kind}`).boundingBox()),
      );
      for (const box of columns) {
        expect(box, 'each packet is laid out').not.toBeNull();
        if (!box) continue;
        expect(
          box.width,
          'a packet column wide enough for titles to read as lines, not a word per line',
        ).toBeGreaterThanOrEqual(260);
        expect(box.y, 'side by side').toBeCloseTo(columns[0]?.y ?? 0, 0);
        expect(box.y + box.height, 'the whole lesson fits without scrolling').toBeLessThanOrEqual(viewport.height);
      }
      await expect(app.auditOutcome).toBeInViewport({ ratio: 1 });
      expect(await brokenWords(page), 'ids and reason codes never broken or cut').toEqual([]);
      expect(await overflowingColumns(page)).toEqual([]);
      // A title wraps as a line of words: at least about twenty characters of it share a line.
      const widest = await page
        .locator('.entry-title')
        .evaluateAll((titles) =>
          titles.map((title) => [...title.getClientRects()].reduce((most, rect) => Math.max(most, rect.width), 0)),
        );
      const narrowest = widest.reduce((least, width) => Math.min(least, width), Number.POSITIVE_INFINITY);
      expect(narrowest).toBeGreaterThanOrEqual(120);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });

    test('the trace scrolls with the page, its column headers staying in view', async ({ app, page }) => {
      await app.goto();
      await expect(app.traceRow('ADR-0231')).toBeAttached();
      const rows = page.getByRole('rowgroup', { name: 'Trace rows' });
      // No box of its own: the row group is as tall as its rows and does not scroll.
      expect(
        await rows.evaluate((element) => ({
          overflow: getComputedStyle(element).overflowY,
          fits: element.scrollHeight <= element.clientHeight + 1,
        })),
      ).toEqual({
        overflow: 'visible',
        fits: true,
      });
      // The last row exists only once the page has scrolled to it.
      await page.mouse.move(viewport.width / 2, viewport.height / 2);
      await expect(async () => {
        await page.mouse.wheel(0, viewport.height);
        await expect(app.traceRow('RUN-0866')).toBeInViewport({ timeout: 500 });
      }).toPass();
      await expect(page.getByRole('columnheader', { name: /Sort by id/ })).toBeInViewport();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    });

    test('the scenario menu shows the whole title of the longest scenario', async ({ app }) => {
      await app.goto();
      await app.scenarioPicker.selectOption('atlas-credit-review');
      await expect(app.auditOutcome).toHaveText('Packet emitted');
      const text = await app.scenarioPicker.evaluate(
        (select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? '',
      );
      expect(text.length).toBeGreaterThan(45);
      expect(
        await app.scenarioPicker.evaluate(
          (select) => select.scrollWidth <= select.clientWidth + 1 && getComputedStyle(select).whiteSpace === 'normal',
        ),
      ).toBe(true);
    });
  });
}

test.describe('phone, 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the compiled packet and its verdict are on the first screen, under the subtitle', async ({ app, page }) => {
    await app.goto();
    await expect(app.tokens('compiled')).toHaveText('74 / 96 tokens');
    await expect(page.getByText('Decides which records an assistant may see', { exact: false })).toBeInViewport({
      ratio: 1,
    });
    const compiled = await page.getByTestId('column-compiled').boundingBox();
    expect(compiled?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(844);
    for (const verdict of ['illegal-count-compiled', 'required-missed-compiled']) {
      const box = await page.getByTestId(verdict).boundingBox();
      expect((box?.y ?? Number.POSITIVE_INFINITY) + (box?.height ?? 0), `${verdict} on the first screen`).toBeLessThan(
        844,
      );
    }
    await expect(app.auditOutcome).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('audit-decision')).toBeInViewport({ ratio: 1 });
    expect(await brokenWords(page), 'ids and reason codes never broken or cut').toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
