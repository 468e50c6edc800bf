import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';

test.describe('Edits, reset and export', () => {
  test('an edited built-in scenario is marked (after a reload too); Reset asks first and can be cancelled', async ({
    app,
    page,
  }) => {
    await app.goto();
    const builtinReceipt = await app.receiptId();
    await page.getByRole('textbox', { name: 'Token budget' }).fill('80');
    await page.getByRole('button', { name: 'Apply contract' }).click();
    await expect(app.auditBudget).toHaveText('74 / 80 tokens');
    await expect(app.scenarioPicker.locator('option:checked')).toHaveText(/\(edited\)$/);
    await expect(page.getByTestId('scenario-edited')).toBeVisible();

    await page.reload();
    await app.waitForCompiled();
    await expect(app.scenarioPicker.locator('option:checked')).toHaveText(/\(edited\)$/);
    await expect(page.getByRole('heading', { name: 'Contract (edited)' })).toBeVisible();

    const reset = page.getByRole('button', { name: 'Reset to built-in scenarios' });
    await reset.click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset to the built-in scenarios?' });
    await expect(dialog).toContainText('1 edited contract');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(reset).toBeFocused();
    await expect(app.auditBudget).toHaveText('74 / 80 tokens');

    await app.resetWorkspace();
    await expect(app.auditBudget).toHaveText('74 / 96 tokens');
    expect(await app.receiptId()).toBe(builtinReceipt);
    await expect(page.getByTestId('scenario-edited')).toHaveCount(0);
  });

  test('"Export scenario" writes a file that loads back, through the file drop, to the same receipt', async ({
    app,
    page,
  }) => {
    await app.goto();
    await page.getByRole('textbox', { name: 'Query' }).fill('retry timeouts failover drill');
    await page.getByRole('textbox', { name: 'Token budget' }).fill('120');
    await page.getByRole('button', { name: 'Apply contract' }).click();
    await expect(app.auditBudget).toHaveText(/ \/ 120 tokens$/);
    const editedReceipt = await app.receiptId();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export scenario' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('retry-policy.scenario.json');
    await expect(page.getByTestId('export-scenario-status')).toHaveText(
      'Exported retry-policy.scenario.json with the edited contract. Dropping it back gives this receipt again.',
    );
    const text = readFileSync(await download.path(), 'utf8');

    await app.resetWorkspace();
    expect(await app.receiptId()).not.toBe(editedReceipt);
    await app.dropFiles([{ name: 'retry-policy.scenario.json', mimeType: 'application/json', text }]);
    await expect(app.loadResult).toContainText('Loaded retry-policy.scenario.json (scenario).');
    await expect(app.scenarioPicker).toHaveValue('loaded:retry-policy');
    await expect(app.auditBudget).toHaveText(/ \/ 120 tokens$/);
    expect(await app.receiptId()).toBe(editedReceipt);
  });
});
