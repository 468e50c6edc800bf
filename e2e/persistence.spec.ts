import { expect, fixtureFile, test } from './fixtures';

test('a loaded scenario survives a reload; "Reset to built-in scenarios" removes it for good', async ({ app }) => {
  await app.goto();
  const builtinReceipt = await app.receiptId();
  const loadedOption = app.scenarioPicker.locator('option[value="loaded:gateway-lite"]');

  await app.dropFiles([fixtureFile('gateway-lite.scenario.json')]);
  await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
  await expect(app.auditSelected).toHaveText('2');
  const loadedReceipt = await app.receiptId();

  await app.page.reload();
  await app.waitForCompiled();
  await expect(app.page.getByTestId('storage-notice')).toHaveCount(0);
  await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
  await expect(loadedOption).toHaveText('E2E: gateway retry, three records (loaded)');
  await expect(app.page.getByTestId('scenario-records')).toHaveText('3 records');
  expect(await app.receiptId()).toBe(loadedReceipt);

  await app.resetWorkspace();
  await expect(app.scenarioPicker).toHaveValue('retry-policy');
  await expect(loadedOption).toHaveCount(0);
  await expect(app.auditReceipt).toHaveText(builtinReceipt.slice(0, 12));

  await app.page.reload();
  await app.waitForCompiled();
  await expect(app.scenarioPicker).toHaveValue('retry-policy');
  await expect(app.scenarioPicker.locator('option', { hasText: '(loaded)' })).toHaveCount(0);
  expect(await app.receiptId()).toBe(builtinReceipt);
});
