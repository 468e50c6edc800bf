import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';

/** The cells of one strategy's row, after its row header: passed, unsafe, coverage (mentioned), … */
function cells(table: Locator, testId: string): Locator {
  return table.getByTestId(testId).getByRole('cell');
}

test.describe('Evaluation view', () => {
  test('reproduces the seed 000 table and runs a small growth experiment in the worker', async ({ app }) => {
    const { page } = app;
    await app.goto();
    await page.getByRole('button', { name: 'Evaluation' }).click();
    await expect(page.getByRole('button', { name: 'Evaluation' })).toHaveAttribute('aria-pressed', 'true');
    const view = page.getByRole('region', { name: 'Evaluation' });
    await expect(view).toBeVisible();

    await view.getByRole('button', { name: 'Run seed 000 comparison' }).click();
    const seed = view.getByRole('table', { name: 'Seed 000 comparison' });
    await expect(seed).toBeVisible();
    // Seed 000's published table: plain top-5 passes 5 items, 4 unsafe, 75 %; post-filter 1 item, 25 %; compiled 4, 0
    // unsafe, 100 %.
    await expect(cells(seed, 'seed000-table-naive').nth(0)).toHaveText('5');
    await expect(cells(seed, 'seed000-table-naive').nth(1)).toHaveText('4');
    await expect(cells(seed, 'seed000-table-naive').nth(2)).toHaveText('75 %');
    await expect(cells(seed, 'seed000-table-post-filter').nth(0)).toHaveText('1');
    await expect(cells(seed, 'seed000-table-post-filter').nth(1)).toHaveText('0');
    await expect(cells(seed, 'seed000-table-post-filter').nth(2)).toHaveText('25 %');
    await expect(cells(seed, 'seed000-table-compiled').nth(0)).toHaveText('4');
    await expect(cells(seed, 'seed000-table-compiled').nth(1)).toHaveText('0');
    await expect(cells(seed, 'seed000-table-compiled').nth(2)).toHaveText('100 %');
    for (const name of ['Items passed', 'Unsafe items passed', 'Coverage (mentioned)'])
      await expect(view.getByRole('img', { name, exact: true })).toBeVisible();

    // Only the smallest sizes, to keep the run short.
    await view.getByRole('checkbox', { name: '10,000' }).uncheck();
    await expect(view.getByRole('checkbox', { name: '100', exact: true })).toBeChecked();
    await expect(view.getByRole('checkbox', { name: '1,000' })).toBeChecked();
    await view.getByRole('button', { name: 'Run growth experiment' }).click();
    const growth = view.getByRole('table', { name: 'Growth results' });
    await expect(growth).toBeVisible({ timeout: 60_000 });
    await expect(view.getByRole('progressbar')).toHaveCount(0);
    await expect(growth.getByRole('row')).toHaveCount(1 + 2 * 4);
    for (const size of [100, 1000]) {
      await expect(cells(growth, `growth-${size}-naive`).nth(1)).toHaveText('5');
      await expect(cells(growth, `growth-${size}-compiled`).nth(1)).toHaveText('0');
      await expect(cells(growth, `growth-${size}-compiled`).nth(3)).toHaveText('100 %');
    }
    await expect(view.getByRole('table', { name: 'Growth timings' })).toContainText(
      'exactly the generated legal records',
    );
    await expect(view.getByRole('img', { name: 'Recall@5' })).toBeVisible();

    // The debugger is where it was left.
    await page.getByRole('button', { name: 'Debugger' }).click();
    await expect(app.auditOutcome).toHaveText('Packet emitted');
  });

  test('compares on the current scenario with its toggled control, and cancels a growth run between sizes', async ({
    app,
  }) => {
    const { page } = app;
    await app.goto();
    await app.control('Remove required provenance').click();
    await expect(app.failClosed).toBeVisible();
    await page.getByRole('button', { name: 'Evaluation' }).click();
    const view = page.getByRole('region', { name: 'Evaluation' });
    await expect(view.getByTestId('scenario-selection')).toContainText('controls: Remove required provenance');
    await view.getByRole('button', { name: 'Run on the current scenario' }).click();
    const table = view.getByRole('table', { name: 'Current scenario comparison' });
    await expect(table).toBeVisible();
    await expect(view.getByTestId('scenario-facts')).toContainText('fail-closed: no packet');
    await expect(cells(table, 'scenario-table-naive').nth(5)).toHaveText('ADR-0234');
    await expect(cells(table, 'scenario-table-compiled').nth(0)).toHaveText('0');

    // 100, 10,000, 50,000: the cancel lands during one of the first two sizes (seconds each), so the 50,000 step never
    // starts.
    await view.getByRole('checkbox', { name: '1,000' }).uncheck();
    await view.getByRole('checkbox', { name: /50,000/ }).check();
    await view.getByRole('button', { name: 'Run growth experiment' }).click();
    const progress = view.getByRole('progressbar', { name: 'Growth experiment progress' });
    await expect(progress).toHaveAttribute('aria-valuenow', /\d+/);
    await view.getByRole('button', { name: 'Cancel experiment' }).click();
    await expect(view.getByTestId('cancelled-growth')).toBeVisible({ timeout: 60_000 });
    await expect(progress).toHaveCount(0);
    await expect(view.getByTestId('growth-50000-naive')).toHaveCount(0);
    await expect(view.getByRole('button', { name: 'Run growth experiment' })).toBeEnabled();
  });
});

test.describe('Evaluation view, readable', () => {
  test('a comparison with nothing to cover says n/a, not 100 %, for the empty fail-closed packet', async ({ app }) => {
    const { page } = app;
    await app.goto();
    await app.control('Remove required provenance').click();
    await expect(app.failClosed).toBeVisible();
    await app.openWorkspace('Evaluation');
    const view = page.getByRole('region', { name: 'Evaluation' });
    await view.getByRole('button', { name: 'Run on the current scenario' }).click();
    const table = view.getByRole('table', { name: 'Current scenario comparison' });
    await expect(cells(table, 'scenario-table-compiled').nth(0)).toHaveText('0');
    await expect(cells(table, 'scenario-table-compiled').nth(2)).toHaveText('n/a');
    await expect(cells(table, 'scenario-table-compiled').nth(3)).toHaveText('n/a');
    await expect(view.getByTestId('coverage-na')).toContainText('this contract requires no propositions');
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`${viewport.width} px: seed 000 is explained in plain words, chart labels are at least 12 px, and the table fits the screen`, async ({
      app,
      page,
    }) => {
      await page.setViewportSize(viewport);
      await app.goto();
      await app.openWorkspace('Evaluation');
      const view = page.getByRole('region', { name: 'Evaluation' });
      await expect(view.getByTestId('seed000-explained')).toContainText('is the essay this project started from');
      await view.getByRole('button', { name: 'Run seed 000 comparison' }).click();
      const table = view.getByRole('table', { name: 'Seed 000 comparison' });
      await expect(cells(table, 'seed000-table-naive').nth(2)).toHaveText('75 %');
      const sizes = await view.locator('.chart svg text').evaluateAll((texts) =>
        texts.map((text) => {
          const svg = (text as SVGTextElement).ownerSVGElement;
          const scale = svg?.getScreenCTM()?.a ?? 0;
          return Math.round(parseFloat(getComputedStyle(text).fontSize) * scale * 100) / 100;
        }),
      );
      expect(sizes.length).toBeGreaterThan(10);
      expect(
        sizes.reduce((smallest, size) => Math.min(smallest, size), Infinity),
        `rendered chart label sizes: ${sizes.join(', ')}`,
      ).toBeGreaterThanOrEqual(12);
      // Every value of the table is on screen without sideways scrolling, with its column's name beside it on a phone.
      const row = table.getByTestId('seed000-table-compiled');
      const box = await row.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      if (viewport.width < 700) await expect(row.getByRole('cell').nth(2)).toHaveCSS('display', 'flex');
    });
  }
});
