import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The README's pictures are rewritten only on request: UPDATE_SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const DIR = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

/** The viewport as it stands, or one element of it. */
async function picture(target: Page | Locator, name: string): Promise<void> {
  if (UPDATE) await target.screenshot({ path: `${DIR}${name}.png`, animations: 'disabled', caret: 'hide' });
}

test.describe('desktop, 1440×900: the three rails side by side', () => {
  test.use({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });

  test('compare: the default scenario', async ({ app, page }) => {
    await app.goto();
    await expect(page.getByRole('tab', { name: 'Compare' })).toBeHidden();
    for (const rail of ['Contract', 'Compare', 'Trace'])
      await expect(page.getByRole('heading', { name: rail, exact: true, level: 2 })).toBeVisible();
    await expect(app.tokens('naive')).toHaveText('90 / 96 tokens');
    await expect(app.tokens('compiled')).toHaveText('74 / 96 tokens');
    await expect(app.traceRow('ADR-0234')).toBeVisible();
    await expect(page.getByTestId('offline-status')).toHaveText('Ready to work offline');
    await picture(page, 'compare');
  });

  test('fail-closed: required provenance removed', async ({ app, page }) => {
    await app.goto();
    await app.control('Remove required provenance').check();
    await expect(app.page.getByTestId('fail-closed-code')).toHaveText('REQUIRED_MISSING_PROVENANCE');
    await expect(app.copyPacketButton).toHaveCount(0);
    // Ticking the switch scrolled the page; the red banner and the audit strip are at the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(app.failClosed).toBeInViewport();
    await picture(page, 'fail-closed');
  });

  test('fire drill: the frozen receipt is stale after the late change, beside what is compiled now', async ({
    app,
    page,
  }) => {
    await app.goto();
    await app.openWorkspace('Fire drill');
    await app.drill.getByRole('button', { name: 'Freeze receipt' }).click();
    await app.drill.getByRole('button', { name: 'Inject late change' }).click();
    await app.drill.getByRole('button', { name: 'Attempt to continue' }).click();
    await expect(app.drill.getByTestId('drill-headline')).toHaveText('STALE — RECOMPILE REQUIRED');
    await expect(app.drill.getByTestId('diff-decisions')).toContainText('RUN-0880 EXCLUDE_BUDGET → SELECTED_REQUIRED');
    // The verdict's headline, code and first difference are in view; the rest of its diff may scroll.
    for (const id of ['drill-headline', 'drill-code', 'diff-first'])
      await expect(app.drill.getByTestId(id)).toBeInViewport({ ratio: 1 });
    await page.getByRole('button', { name: 'Attempt to continue' }).blur();
    await picture(page, 'drill-stale');
  });

  test('the record inspector: every gate of a superseded policy, in order', async ({ app, page }) => {
    await app.goto();
    await app.scenarioPicker.selectOption('atlas-credit-review');
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await app.traceRow('P2').getByRole('button', { name: 'Inspect P2' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Record P2' }).getByTestId('inspector-gate-supersession'),
    ).toContainText('EXCLUDE_SUPERSEDED');
    await picture(page, 'inspector');
  });

  test('a pinned baseline: what switching on a control changed, and the trace rows it marks', async ({ app, page }) => {
    await app.goto();
    await app.scenarioPicker.selectOption('atlas-credit-review');
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await page.getByRole('button', { name: 'Pin as baseline' }).click();
    await app.control('An officer approves a new waiver').check();
    const baseline = page.getByTestId('baseline-panel');
    await expect(baseline.getByTestId('diff-packet')).toContainText('in: W-61');
    await expect(page.getByTestId('trace-change-W-61')).toBeVisible();
    await baseline.scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: 'Pin current instead' }).blur();
    await picture(page, 'baseline-diff');
  });

  test('guided tour and glossary, dark theme', async ({ app, page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.goto();
    await page.getByRole('button', { name: 'Start guided tour' }).click();
    // Step 1 done: the card says what switching on the superseded decision did, beside what it did.
    await app.control('Superseded decision').check();
    await expect(page.getByTestId('tour-shows')).toBeVisible();
    await picture(page, 'tour-dark');
    await page.keyboard.press('Escape');
    await app.traceRow('SEC-0042').getByRole('button', { name: 'EXCLUDE_NOT_AUTHORISED' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Glossary' }).getByTestId('glossary-EXCLUDE_NOT_AUTHORISED'),
    ).toBeFocused();
    await picture(page, 'glossary-dark');
  });

  test('presenter mode: the three packets and their numbers in larger type, a control switched on by its key', async ({
    app,
    page,
  }) => {
    await app.goto();
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await page.keyboard.press('p');
    await page.keyboard.press('2');
    await expect(page.getByTestId('entry-naive-ADR-0198')).toBeVisible();
    for (const kind of ['naive', 'post-filter', 'compiled'])
      await expect(page.getByTestId(`column-${kind}`)).toBeInViewport({ ratio: 1 });
    await picture(page, 'presenter');
  });
});

test.describe('laptop, 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 }, colorScheme: 'light' });

  test('the three packets side by side, the trace table under them', async ({ app, page }) => {
    await app.goto();
    await expect(page.getByRole('table', { name: 'Trace' })).not.toHaveClass(/\bcards\b/);
    await expect(page.getByTestId('column-naive')).toBeInViewport({ ratio: 1 });
    await picture(page, 'laptop');
  });
});

test.describe('narrow screen, 390×844: tabs', () => {
  test.use({ viewport: { width: 390, height: 844 }, colorScheme: 'light', isMobile: true, hasTouch: true });

  test('one rail at a time behind Contract, Compare and Trace tabs', async ({ app, page }) => {
    await app.goto();
    const tabs = ['Contract', 'Compare', 'Trace'];
    for (const name of tabs) await expect(page.getByRole('tab', { name })).toBeVisible();

    await page.getByRole('tab', { name: 'Compare' }).click();
    await expect(page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Compare' })).toBeVisible();
    await expect(page.getByRole('tabpanel', { name: 'Contract' })).toBeHidden();
    await expect(page.getByRole('tabpanel', { name: 'Trace' })).toBeHidden();
    await expect(app.tokens('compiled')).toHaveText('74 / 96 tokens');
    await expect(app.tokens('compiled')).toBeVisible();
    // No sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await picture(page, 'mobile');

    await page.getByRole('tab', { name: 'Trace' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Trace' })).toBeVisible();
    await expect(page.getByRole('tabpanel', { name: 'Compare' })).toBeHidden();
    await expect(app.traceCount).toHaveText('Showing 13 of 13 candidates');
  });

  test('the trace as cards, dark theme', async ({ app, page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.goto();
    await page.getByRole('tab', { name: 'Trace' }).click();
    await page.getByRole('searchbox', { name: 'Search trace' }).fill('RUN-08');
    await expect(app.traceCount).toHaveText('Showing 3 of 13 candidates');
    await page.getByRole('searchbox', { name: 'Search trace' }).blur();
    await page.getByTestId('trace-count').evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await picture(page, 'mobile-trace-dark');
  });
});
