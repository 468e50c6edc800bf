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
    for (const rail of ['Contract', 'Compare', 'Trace']) await expect(page.getByRole('heading', { name: rail, exact: true, level: 2 })).toBeVisible();
    await expect(app.tokens('naive')).toHaveText('90 / 96 tokens');
    await expect(app.tokens('compiled')).toHaveText('74 / 96 tokens');
    await expect(app.traceRow('ADR-0234')).toBeVisible();
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

  test('fire drill: the frozen receipt is stale after the late change', async ({ app }) => {
    await app.goto();
    await app.drill.getByRole('button', { name: 'Freeze receipt' }).click();
    await app.drill.getByRole('button', { name: 'Inject late change' }).click();
    await app.drill.getByRole('button', { name: 'Attempt to continue' }).click();
    await expect(app.drill.getByTestId('drill-headline')).toHaveText('STALE — RECOMPILE REQUIRED');
    await expect(app.drill.getByTestId('diff-decisions')).toContainText('RUN-0880 EXCLUDE_BUDGET → SELECTED_REQUIRED');
    // The drill sits at the foot of the narrow contract rail: picture the panel, not the empty space beside it.
    await picture(app.drill, 'drill-stale');
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
});
