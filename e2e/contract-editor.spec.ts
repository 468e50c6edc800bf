import { expect, test } from './fixtures';

test.describe('The contract editor validates as you type', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('flags a misspelt field on its line before Apply, then formats and applies a fix with Ctrl+Enter', async ({
    app,
    page,
  }) => {
    await app.goto();
    const receipt = await app.receiptId();
    await page.getByRole('button', { name: 'Raw JSON' }).click();
    const box = page.getByRole('textbox', { name: 'Contract JSON' });
    const contract = JSON.parse(await box.inputValue()) as Record<string, unknown>;
    const misspelt = JSON.stringify(contract, null, 2).replace('"tokenBudget"', '"tokenBudgte"');
    await box.fill(misspelt);

    const line = misspelt.split('\n').findIndex((text) => text.includes('tokenBudgte')) + 1;
    const typed = page.getByTestId('contract-typed-issues');
    await expect(typed).toContainText(
      `(line ${line}): unknown field "tokenBudgte": not part of the format; did you mean "tokenBudget"?`,
    );
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('contract-json-problem-line').filter({ hasText: '"tokenBudgte"' })).toHaveCount(1);
    // Nothing was applied: the receipt on screen is the one compiled before the edit.
    expect(await app.receiptId()).toBe(receipt);

    await box.fill(JSON.stringify({ ...contract, tokenBudget: Number(contract.tokenBudget) + 1 }));
    await expect(typed).toHaveCount(0);
    await page.getByRole('button', { name: 'Format' }).click();
    await expect(box).toHaveValue(
      `${JSON.stringify({ ...contract, tokenBudget: Number(contract.tokenBudget) + 1 }, null, 2)}\n`,
    );
    await box.press('Control+Enter');
    await expect.poll(() => app.receiptId()).not.toBe(receipt);
    await expect(page.getByTestId('scenario-edited')).toBeVisible();
  });
});
