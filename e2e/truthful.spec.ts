import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';

test.describe('Views that tell the truth', () => {
  test.use({ viewport: { width: 1440, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });

  test('a drill verdict is marked "inputs changed" after a toggle or a contract edit recompiles', async ({
    app,
    page,
  }) => {
    await app.goto();
    await app.openWorkspace('Fire drill');
    await app.drill.getByRole('button', { name: 'Inject late change' }).click();
    await app.drill.getByRole('button', { name: 'Recompile current context' }).click();
    await expect(app.drill.getByTestId('drill-headline')).toHaveText('CURRENT — MAY CONTINUE');
    const verdictReceipt = (await app.drill.getByTestId('drill-verdict').textContent()) ?? '';

    await app.openWorkspace('Debugger');
    await app.control('Highly similar future reveal').check();
    await expect(page.getByTestId('scenario-records')).toHaveText('14 records (13 in the scenario)');
    await app.openWorkspace('Fire drill');
    await expect(app.drill.getByTestId('drill-headline')).toHaveCount(0);
    await expect(app.drill.getByTestId('drill-verdict-outdated')).toContainText('INPUTS CHANGED — ATTEMPT AGAIN');
    expect(verdictReceipt).not.toContain((await app.receiptId()).slice(0, 12));
    await app.drill.getByRole('button', { name: 'Attempt to continue' }).click();
    await expect(app.drill.getByTestId('drill-headline')).toHaveText('STALE — RECOMPILE REQUIRED');

    await app.openWorkspace('Debugger');
    await page.getByRole('textbox', { name: 'Query' }).fill('retry timeouts');
    await page.getByRole('button', { name: 'Apply contract' }).click();
    await expect(page.getByRole('heading', { name: 'Contract (edited)' })).toBeVisible();
    await app.openWorkspace('Fire drill');
    await expect(app.drill.getByTestId('drill-verdict-outdated')).toBeVisible();
  });

  test('the user view exports only the user view, labelled; the diagnostic receipt only from the diagnostic view', async ({
    app,
    page,
  }) => {
    await app.goto();
    await app.scenarioPicker.selectOption('atlas-credit-review');
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    const withheld = 'X9';
    const [receiptDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download diagnostic receipt' }).click(),
    ]);
    expect(receiptDownload.suggestedFilename()).toMatch(/^receipt-diagnostic-[0-9a-f]{12}\.json$/);
    const receipt = readFileSync(await receiptDownload.path(), 'utf8');
    expect(receipt).toContain(withheld);
    expect(receipt).toContain('financial_crime');

    await page.getByRole('radio', { name: 'User view' }).check();
    await expect(page.getByTestId('withheld-notice')).toHaveText('1 record is outside the authorised scope.');
    await expect(
      page.getByRole('region', { name: 'Export (user view)' }).getByRole('button', { name: /receipt/i }),
    ).toHaveCount(0);
    await expect(page.getByTestId('export-view')).toContainText(
      'User view: what you copy or download here is the user view and says so.',
    );

    const [userDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download user view' }).click(),
    ]);
    expect(userDownload.suggestedFilename()).toMatch(/^user-view-[0-9a-f]{12}\.json$/);
    const userView = JSON.parse(readFileSync(await userDownload.path(), 'utf8')) as {
      view: string;
      notice: string;
      withheldCount: number;
      trace: { id: string }[];
    };
    expect(userView.view).toBe('user');
    expect(userView.notice).toMatch(/^User view: .*This is not a receipt/);
    expect(userView.withheldCount).toBe(1);
    expect(userView.trace).toHaveLength(10);

    const [packetDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download packet' }).click(),
    ]);
    const packet = readFileSync(await packetDownload.path(), 'utf8');
    expect(JSON.parse(packet)).toMatchObject({ view: 'user' });

    await page.getByRole('button', { name: 'Copy packet' }).click();
    await expect(page.getByTestId('export-status')).toHaveText(/^Packet copied \(user view, packet [0-9a-f]{12}\)\.$/);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split('\n')[1]).toMatch(/^view: user \(1 record is outside the authorised scope and not named; /);

    // The user view shows its own id, never the receipt's (docs/FORMAT.md, "User-view export").
    const { receiptId } = JSON.parse(receipt) as { receiptId: string };
    await expect(page.getByTestId('audit-receipt')).toHaveCount(0);
    await expect(page.getByTestId('audit-strip')).not.toContainText(receiptId.slice(0, 12));
    for (const text of [JSON.stringify(userView), packet, copied]) {
      expect(text).not.toContain(withheld);
      expect(text).not.toContain('financial_crime');
      expect(text).not.toContain(receiptId);
    }

    // Dropped back, the user view is refused as what it is.
    await app.dropFiles([
      { name: userDownload.suggestedFilename(), mimeType: 'application/json', text: JSON.stringify(userView) },
    ]);
    await expect(app.loadErrors.getByTestId('load-issue')).toHaveText([/format: a user-view export is not a receipt/]);
  });

  test('the form shows the values compiled, with a badge for each active control and late change', async ({
    app,
    page,
  }) => {
    await app.goto();
    const budget = page.getByRole('textbox', { name: 'Token budget' });
    await expect(budget).toHaveValue('96');
    await app.control('Required record over budget').check();
    await expect(app.auditBudget).toHaveText(/ \/ 24 tokens$/);
    await expect(budget).toHaveValue('24');
    await expect(budget).toHaveAttribute('readonly', '');
    await expect(page.getByTestId('override-tokenBudget')).toContainText('control: Required record over budget');
    await expect(page.getByTestId('override-tokenBudget')).toContainText('The scenario says “96”');
    await expect(page.getByTestId('compiled-with')).toContainText('control: Required record over budget');
    await app.control('Required record over budget').uncheck();
    await expect(budget).toHaveValue('96');
    await expect(budget).not.toHaveAttribute('readonly');

    await app.openWorkspace('Fire drill');
    await app.drill.getByRole('button', { name: 'Inject late change' }).click();
    await app.drill.getByRole('button', { name: 'Recompile current context' }).click();
    await expect(app.drill.getByTestId('drill-headline')).toHaveText('CURRENT — MAY CONTINUE');
    await app.openWorkspace('Debugger');
    await expect(page.getByRole('textbox', { name: /^Required records/ })).toHaveValue('ADR-0234, RUN-0880');
    await expect(page.getByTestId('override-requiredRecords')).toContainText(
      'late change: Late correction: RUN-0880 is required',
    );

    await app.control('Highly similar future reveal').check();
    await expect(page.getByTestId('scenario-records')).toHaveText('14 records (13 in the scenario)');
    await expect(page.getByTestId('compiled-with')).toContainText('control: Highly similar future reveal');
  });
});
