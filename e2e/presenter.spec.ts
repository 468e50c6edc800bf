import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

test.describe('presenter mode, 1440×900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('larger type, the three packets and the numbers on one screen, the controls on keys 1 to 9', async ({
    app,
    page,
  }) => {
    await app.goto();
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    const rootSize = () => page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    const before = await rootSize();
    await page.getByRole('button', { name: 'Presenter mode', exact: true }).focus();
    await page.keyboard.press('p');
    // The header's buttons make way; the control strip's last button leaves, as do P and Escape.
    await expect(page.getByTestId('presenter-controls')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Presenter mode', exact: true })).toBeHidden();
    expect(await rootSize()).toBeGreaterThanOrEqual(before * 1.15);
    await expect(page.getByRole('heading', { name: 'Contract', level: 2 })).toBeHidden();
    await expect(page.getByRole('table', { name: 'Trace' })).toBeHidden();
    for (const kind of ['naive', 'post-filter', 'compiled'])
      await expect(page.getByTestId(`column-${kind}`)).toBeInViewport({ ratio: 1 });
    for (const id of ['audit-selected', 'audit-excluded', 'audit-budget', 'audit-outcome', 'audit-decision'])
      await expect(page.getByTestId(id)).toBeInViewport({ ratio: 1 });

    // Key 2 is the scenario's second control, "Superseded decision": the naive packet takes ADR-0198.
    const controls = page.getByTestId('presenter-controls');
    const superseded = controls.getByRole('button', { name: /Superseded decision/ });
    await expect(superseded).toHaveAttribute('aria-keyshortcuts', '2');
    await page.keyboard.press('2');
    await expect(superseded).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('entry-naive-ADR-0198')).toBeVisible();
    await expect(page.getByTestId('entry-compiled-ADR-0198')).toHaveCount(0);
    expect(
      await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa', 'best-practice'])
        .analyze()
        .then((results) =>
          results.violations
            .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
            .map((violation) => violation.id),
        ),
    ).toEqual([]);
    await page.keyboard.press('2');
    await expect(superseded).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByTestId('entry-naive-ADR-0198')).toHaveCount(0);

    await page.keyboard.press('Escape');
    await expect(controls).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Contract', level: 2 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Presenter mode', exact: true })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(await rootSize()).toBe(before);
  });

  test('a key typed into a field is text, not a shortcut; the glossary lists the shortcuts', async ({ app, page }) => {
    await app.goto();
    await page.getByRole('searchbox', { name: 'Search trace' }).fill('');
    await page.getByRole('searchbox', { name: 'Search trace' }).press('p');
    await expect(page.getByRole('button', { name: 'Presenter mode', exact: true })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await expect(page.getByRole('searchbox', { name: 'Search trace' })).toHaveValue('p');
    await page.getByRole('button', { name: 'Glossary' }).click();
    const shortcuts = page.getByRole('dialog', { name: 'Glossary' }).getByTestId('glossary-shortcuts');
    for (const key of ['P', '1 … 9', 'Esc']) await expect(shortcuts.getByText(key, { exact: true })).toBeVisible();
  });
});
