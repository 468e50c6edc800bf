import type { Locator, Page } from '@playwright/test';
import { expect, fixtureFile, test, type AppPage } from './fixtures';

const BUILT_IN = ['retry-policy', 'atlas-credit-review', 'refund-desk'] as const;

interface Box {
  readonly name: string;
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/**
 * Every term and value of the audit strip as drawn, and every text that is wider than its own box: two boxes
 * that overlap draw one text over another, and a text wider than its box spills into its neighbour.
 */
async function auditStripGeometry(
  strip: Locator,
): Promise<{ boxes: Box[]; overflowing: string[]; wrappedTerms: string[] }> {
  return strip.evaluate((element) => {
    const boxes: Box[] = [];
    const overflowing: string[] = [];
    const wrappedTerms: string[] = [];
    for (const cell of element.querySelectorAll('dt, dd')) {
      const name = `${cell.tagName.toLowerCase()} "${cell.textContent ?? ''}"`;
      // The text's own extent: a range over the contents, not the box, which a grid or flex item may stretch.
      const range = document.createRange();
      range.selectNodeContents(cell);
      const text = range.getBoundingClientRect();
      const own = cell.getBoundingClientRect();
      boxes.push({ name, left: text.left, top: text.top, right: text.right, bottom: text.bottom });
      if (text.right > own.right + 0.5 || text.left < own.left - 0.5 || cell.scrollWidth > cell.clientWidth + 1)
        overflowing.push(name);
      const lineHeight =
        parseFloat(getComputedStyle(cell).lineHeight) || parseFloat(getComputedStyle(cell).fontSize) * 1.6;
      if (cell.tagName === 'DT' && text.height > lineHeight * 1.5) wrappedTerms.push(name);
    }
    return { boxes, overflowing, wrappedTerms };
  });
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

async function expectAuditStripClear(page: Page, state: string): Promise<void> {
  const strip = page.getByTestId('audit-strip');
  const { boxes, overflowing, wrappedTerms } = await auditStripGeometry(strip);
  expect(boxes.length, `${state}: the strip's terms and values`).toBe(12);
  const clashes = boxes.flatMap((a, index) =>
    boxes
      .slice(index + 1)
      .filter((b) => overlaps(a, b))
      .map((b) => `${a.name} over ${b.name}`),
  );
  expect(clashes, `${state}: no term or value drawn over another`).toEqual([]);
  expect(overflowing, `${state}: no text wider than its cell`).toEqual([]);
  expect(wrappedTerms, `${state}: every term on one line`).toEqual([]);
  const viewport = page.viewportSize();
  const stripBox = await strip.boundingBox();
  expect(
    stripBox && viewport ? stripBox.x + stripBox.width : 0,
    `${state}: the strip fits the screen`,
  ).toBeLessThanOrEqual(viewport?.width ?? 0);
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`the audit strip at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('no term or value overlaps another or overflows its cell: both themes, both views, fail-closed, four-digit counts', async ({
      app,
      page,
    }) => {
      test.setTimeout(180_000);
      await app.goto();
      const userView = page.getByRole('radio', { name: 'User view' });
      const diagnosticView = page.getByRole('radio', { name: 'Diagnostic view' });
      // On a phone the disclosure switch sits in the trace's tab.
      const showTrace = async () => {
        if (viewport.width < 1100) await page.getByRole('tab', { name: 'Trace' }).click();
      };
      const showContract = async () => {
        if (viewport.width < 1100) await page.getByRole('tab', { name: 'Contract' }).click();
      };
      for (const theme of ['light', 'dark'] as const) {
        if (theme === 'dark') await page.getByRole('button', { name: 'Dark theme' }).click();
        for (const scenario of BUILT_IN) {
          await showContract();
          await app.selectScenario(scenario);
          await expectAuditStripClear(page, `${theme}, ${scenario}, diagnostic view`);
          await showTrace();
          await userView.check();
          await app.waitForCompiled();
          await expectAuditStripClear(page, `${theme}, ${scenario}, user view`);
          await diagnosticView.check();
          await app.waitForCompiled();
        }
        await showContract();
        await app.selectScenario('retry-policy');
        await app.setControl('Remove required provenance', true);
        await expect(app.auditOutcome).toHaveText('Fail-closed: no packet');
        await expectAuditStripClear(page, `${theme}, fail-closed`);
        await showTrace();
        await userView.check();
        await app.waitForCompiled();
        await expectAuditStripClear(page, `${theme}, fail-closed, user view`);
        await diagnosticView.check();
        await showContract();
        await app.setControl('Remove required provenance', false);
      }
      const loaded = await app.loadFiles([fixtureFile('four-digit-counts.scenario.json')]);
      expect(loaded.ok, loaded.message).toBe(true);
      await expect(app.auditBudget).toHaveText(/^\d,\d{3} \/ 9,600 tokens$/);
      await expectAuditStripClear(page, 'dark, four-digit token counts');
      await showTrace();
      await userView.check();
      await app.waitForCompiled();
      await expectAuditStripClear(page, 'dark, four-digit token counts, user view');
    });
  });
}

/** The bottom of the last entry of the compiled packet, and the screen's height. */
async function compiledPacketBottom(app: AppPage): Promise<number> {
  const last = app.entries('compiled').last();
  const box = await last.boundingBox();
  return box ? box.y + box.height : Number.POSITIVE_INFINITY;
}

test.describe('the first screen at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('on every built-in scenario the whole compiled packet, and any decision warning, are on the first screen', async ({
    app,
    page,
  }) => {
    await app.goto();
    for (const scenario of BUILT_IN) {
      await app.selectScenario(scenario);
      await expect(app.entries('compiled').first()).toBeVisible();
      expect(
        await compiledPacketBottom(app),
        `${scenario}: the compiled packet's last entry ends on the first screen`,
      ).toBeLessThanOrEqual(720);
      const warning = page.getByTestId('decision-blocked');
      if (scenario === 'atlas-credit-review')
        await expect(warning).toHaveText(/^Decision reserved for a person: waiver_valid not established/);
      if ((await warning.count()) > 0)
        await expect(warning, `${scenario}: the decision warning`).toBeInViewport({ ratio: 1 });
    }
  });

  test('presenter mode shows the whole compiled packet on every built-in scenario', async ({ app, page }) => {
    await app.goto();
    for (const scenario of BUILT_IN) {
      await app.selectScenario(scenario);
      await page.getByRole('button', { name: 'Presenter mode', exact: true }).click();
      await expect(page.getByTestId('presenter-controls')).toBeVisible();
      await expect(app.entries('compiled').first()).toBeVisible();
      expect(
        await compiledPacketBottom(app),
        `${scenario}: the compiled packet's last entry ends on the screen`,
      ).toBeLessThanOrEqual(720);
      for (const id of ['audit-outcome', 'audit-decision'])
        await expect(page.getByTestId(id), `${scenario}: ${id}`).toBeInViewport({ ratio: 1 });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('presenter-controls')).toHaveCount(0);
    }
  });
});

test.describe('the poison controls stay where they were seen', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  for (const scenario of BUILT_IN) {
    test(`${scenario}: a compile's result moves no switch`, async ({ app, page }) => {
      await app.goto();
      await app.selectScenario(scenario);
      const switches = page.getByRole('switch');
      const positions = () =>
        switches.evaluateAll((elements) =>
          elements.map((element) => Math.round(element.getBoundingClientRect().top + window.scrollY)),
        );
      const before = await positions();
      expect(before.length, 'the scenario has controls').toBeGreaterThan(0);
      const first = switches.first();
      const id = ((await first.getAttribute('data-testid')) ?? '').replace(/^control-/, '');
      await first.check();
      // The result compiled with the control is in: its badge says so.
      await expect(page.getByTestId(`change-badge-${id}`)).toBeVisible();
      await app.waitForCompiled();
      expect(await positions(), 'every switch where it was before the compile').toEqual(before);
      await first.uncheck();
      await expect(page.getByTestId(`change-badge-${id}`)).toHaveCount(0);
      await app.waitForCompiled();
      expect(await positions(), 'and after the next one').toEqual(before);
    });
  }
});
