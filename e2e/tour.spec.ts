import { expect, test } from './fixtures';

test.describe('Guided tour (seed 003, "Try it in 90 seconds")', () => {
  test('a facilitator starts it, steps through all eight steps by keyboard, and each step shows what it names', async ({ app, page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await app.goto();
    await app.control('Remove required provenance').check();
    await page.getByRole('button', { name: 'Start guided tour' }).click();
    const tour = page.getByRole('region', { name: 'Guided tour' });
    await expect(tour.getByTestId('tour-progress')).toHaveText('Guided tour · step 1 of 8');
    await expect(tour.getByRole('heading', { level: 2 })).toBeFocused();
    // The tour starts on the default scenario with every control off.
    await expect(app.control('Remove required provenance')).not.toBeChecked();
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await expect(page.locator('.columns')).toHaveAttribute('data-tour-target', 'true');

    await page.keyboard.press('ArrowRight');
    await expect(tour.getByTestId('tour-progress')).toHaveText('Guided tour · step 2 of 8');
    await expect(app.entry('compiled', 'ADR-0234')).toHaveAttribute('data-tour-target', 'true');
    await expect(app.entry('compiled', 'ADR-0234')).toBeInViewport();

    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('table', { name: 'Trace' })).toHaveAttribute('data-tour-target', 'true');

    // Step 4: the fire drill view opens; the participant does what the step says.
    await page.keyboard.press('ArrowRight');
    await expect(app.drill).toHaveAttribute('data-tour-target', 'true');
    await app.drill.getByRole('button', { name: 'Freeze receipt' }).click();
    await app.drill.getByRole('button', { name: 'Inject late change' }).click();
    await app.drill.getByRole('button', { name: 'Attempt to continue' }).click();
    await expect(app.drill.getByTestId('drill-headline')).toHaveText('STALE — RECOMPILE REQUIRED');

    // Back to the card by keyboard: Next is a button in it.
    await tour.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await expect(tour.getByTestId('tour-progress')).toHaveText('Guided tour · step 5 of 8');
    await expect(page.getByTestId('drill-current')).toHaveAttribute('data-tour-target', 'true');
    for (const step of [6, 7, 8]) {
      await page.keyboard.press('Enter');
      await expect(tour.getByTestId('tour-progress')).toHaveText(`Guided tour · step ${step} of 8`);
    }
    await expect(page.getByRole('region', { name: 'Fire drill' })).toHaveCount(0);
    await expect(tour.getByRole('button', { name: 'Finish tour' })).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(tour.getByTestId('tour-progress')).toHaveText('Guided tour · step 7 of 8');
    await tour.getByRole('button', { name: 'Next' }).press('Enter');
    await tour.getByRole('button', { name: 'Finish tour' }).press('Enter');
    await expect(tour).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start guided tour' })).toBeFocused();
  });

  test('it can be left at any step with Escape, on a phone too, and nothing stays outlined', async ({ app, page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await app.goto();
    await page.getByRole('button', { name: 'Start guided tour' }).click();
    const tour = page.getByRole('region', { name: 'Guided tour' });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Trace' })).toHaveAttribute('aria-selected', 'true');
    await expect(tour).toBeInViewport();
    const box = await tour.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await page.keyboard.press('Escape');
    await expect(tour).toHaveCount(0);
    await expect(page.locator('[data-tour-target]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start guided tour' })).toBeFocused();
  });
});
