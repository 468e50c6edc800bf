import { expect, fixtureFile, test } from './fixtures';

test.describe('Loading files', () => {
  test('a dropped scenario is selected and compiles; a bad contract is refused and changes nothing; a records line that is not a record is listed, not refused', async ({
    app,
  }) => {
    await app.goto();
    const builtinReceipt = await app.receiptId();

    await app.dropFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(app.loadResult).toContainText('Loaded gateway-lite.scenario.json (scenario).');
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await expect(app.scenarioPicker.locator('option:checked')).toHaveText('E2E: gateway retry, three records (loaded)');
    await expect(app.page.getByTestId('scenario-records')).toHaveText('3 records');
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await expect(app.auditSelected).toHaveText('2');
    await expect(app.auditBudget).toHaveText('46 / 96 tokens');
    await expect(app.entries('compiled')).toHaveText([/^ADR-0234/, /^RUN-0871/]);
    await expect(app.traceCount).toHaveText('Showing 3 of 3 candidates');
    await expect(app.traceRow('ADR-0231')).toContainText('EXCLUDE_PROJECT');
    const loadedReceipt = await app.receiptId();
    expect(loadedReceipt).not.toBe(builtinReceipt);

    await app.dropFiles([fixtureFile('bad-contract.json')]);
    await expect(app.loadErrors).toContainText('nothing that was loaded before has changed');
    // file:line: field: message
    await expect(app.loadErrors.getByTestId('load-issue')).toHaveText([
      /^bad-contract\.json:1: task: required field missing/,
    ]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await expect(app.page.getByTestId('scenario-records')).toHaveText('3 records');
    await expect(app.auditSelected).toHaveText('2');
    expect(await app.receiptId()).toBe(loadedReceipt);
    await expect(app.traceCount).toHaveText('Showing 3 of 3 candidates');

    // A records line that is not a record may be one the caller may not see: it is inadmissible, listed with its place
    // in the diagnostic view only.
    await app.dropFiles([fixtureFile('bad-records.jsonl')]);
    await expect(app.loadResult).toContainText('bad-records.jsonl');
    await expect(app.page.getByTestId('unreadable-records')).toContainText('EXCLUDE_UNREADABLE');
    await expect(app.page.getByTestId('unreadable-records').getByRole('listitem')).toHaveText([
      /^bad-records\.jsonl:2: tokens: .*expected number/,
    ]);
    await app.page.getByRole('radio', { name: 'User view' }).click();
    await expect(app.page.getByTestId('unreadable-records')).toHaveCount(0);
    await expect(app.page.getByTestId('withheld-notice')).toBeVisible();
  });

  test('the file button loads a scenario with its records file, and refuses a scenario whose records file is missing', async ({
    app,
  }) => {
    await app.goto();

    await app.openFiles([fixtureFile('gateway-files.scenario.json'), fixtureFile('gateway-files.records.jsonl')]);
    await expect(app.loadResult).toContainText('gateway-files.scenario.json (scenario)');
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-files');
    await expect(app.page.getByTestId('scenario-records')).toHaveText('4 records');
    await expect(app.auditSelected).toHaveText('3');
    await expect(app.auditBudget).toHaveText('60 / 96 tokens');
    await expect(app.entries('compiled')).toHaveText([/^ADR-0234/, /^RUN-0871/, /^PM-2207/]);
    const loadedReceipt = await app.receiptId();

    const orphan = { ...fixtureFile('gateway-files.scenario.json'), name: 'orphan.scenario.json' };
    await app.openFiles([orphan]);
    await expect(app.loadErrors.getByTestId('load-issue')).toHaveText([
      /^orphan\.scenario\.json:88: records: names "gateway-files\.records\.jsonl", which was not supplied/,
    ]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-files');
    expect(await app.receiptId()).toBe(loadedReceipt);

    await app.openFiles([fixtureFile('bad-contract.json')]);
    await expect(app.loadErrors.getByTestId('load-issue')).toHaveText([/^bad-contract\.json:1: task: /]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-files');
    await expect(app.auditBudget).toHaveText('60 / 96 tokens');
    expect(await app.receiptId()).toBe(loadedReceipt);
  });
});
