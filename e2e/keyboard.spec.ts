import { expect, test } from './fixtures';

test.describe('Keyboard: the focus stays where the action was', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('skip links reach the trace search in four key presses, and every skip link lands on its target', async ({
    app,
    page,
  }) => {
    await app.goto();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to the contract' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to the trace search' })).toBeFocused();
    await expect(page.getByRole('link', { name: 'Skip to the trace search' })).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('searchbox', { name: 'Search trace' })).toBeFocused();
    await page.keyboard.type('RUN-0880');
    await expect(app.traceCount).toHaveText('Showing 1 of 13 candidates');

    await page.getByRole('link', { name: 'Skip to the fire drill' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Fire drill', level: 2 })).toBeFocused();
    await page.getByRole('link', { name: 'Skip to the packets' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Compare', level: 2 })).toBeFocused();
  });

  test('after "Recompile current context" the focus is still on it, and the verdict is announced', async ({
    app,
    page,
  }) => {
    await app.goto();
    await app.openWorkspace('Fire drill');
    await app.drill.getByRole('button', { name: 'Inject late change' }).press('Enter');
    const recompile = app.drill.getByRole('button', { name: 'Recompile current context' });
    await recompile.focus();
    await page.keyboard.press('Enter');
    await expect(app.drill.getByTestId('drill-headline')).toHaveText('CURRENT — MAY CONTINUE');
    await expect(recompile).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(app.drill.getByRole('button', { name: 'Attempt to continue' })).toBeFocused();
  });

  test('Compile context while fail-closed, and Apply contract, keep the focus', async ({ app, page }) => {
    await app.goto();
    await app.control('Remove required provenance').press('Space');
    await expect(app.failClosed).toBeVisible();
    await app.compileButton.focus();
    await page.keyboard.press('Enter');
    await expect(app.page.getByTestId('fail-closed-code')).toHaveText('REQUIRED_MISSING_PROVENANCE');
    await expect(app.compileButton).toBeFocused();

    await page.getByRole('textbox', { name: 'Query' }).fill('retry timeouts');
    await page.getByRole('button', { name: 'Apply contract' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Contract (edited)' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Apply contract' })).toBeFocused();
    await page.getByRole('button', { name: 'Revert contract edits' }).press('Enter');
    await expect(page.getByRole('heading', { name: 'Contract', level: 3, exact: true })).toBeFocused();
  });

  test('the Evaluation run buttons keep the focus while they run and after', async ({ app, page }) => {
    await app.goto();
    await app.openWorkspace('Evaluation');
    const run = page.getByRole('button', { name: 'Run seed 000 comparison' });
    await run.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('table', { name: 'Seed 000 comparison' })).toBeVisible();
    await expect(run).toBeFocused();
    await expect(run).toBeEnabled();
  });
});

test.describe('Keyboard on a phone-sized screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the view tabs follow the arrow keys, Home and End, and Tab leaves the tab list', async ({ app, page }) => {
    await app.goto();
    const tab = (name: string) => page.getByRole('tab', { name });
    await tab('Compare').focus();
    await page.keyboard.press('ArrowRight');
    await expect(tab('Trace')).toBeFocused();
    await expect(page.getByRole('tabpanel', { name: 'Trace' })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(tab('Contract')).toBeFocused();
    await expect(page.getByRole('tabpanel', { name: 'Contract' })).toBeVisible();
    await page.keyboard.press('End');
    await expect(tab('Trace')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Home');
    await expect(tab('Contract')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowLeft');
    await expect(tab('Trace')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(tab('Contract')).not.toBeFocused();
    await expect(tab('Compare')).not.toBeFocused();
  });

  test('the trace-search skip link opens the Trace tab', async ({ app, page }) => {
    await app.goto();
    await page.getByRole('link', { name: 'Skip to the trace search' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('tab', { name: 'Trace' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('searchbox', { name: 'Search trace' })).toBeFocused();
  });
});
