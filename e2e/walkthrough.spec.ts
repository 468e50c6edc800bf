import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';

interface Golden {
  readonly selected: readonly string[];
  readonly tokens: string;
  readonly trace: Readonly<Record<string, string>>;
  readonly naive: {
    readonly selected: readonly string[];
    readonly illegal: readonly string[];
    readonly requiredMissed: readonly string[];
  };
  readonly receiptId: string;
}

// The CLI's golden files for the default scenario: the browser must agree with them record for record.
const readGolden = (name: string): Golden =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/retry-policy/expected/${name}.json`, import.meta.url), 'utf8'),
  ) as Golden;
const DEFAULT = readGolden('default');
const LATE = readGolden('late-promote-run-0880');

test.describe('Try it in 90 seconds (seed 003) on the default scenario', () => {
  test.use({ viewport: { width: 1440, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });

  test('naive and compiled packets side by side under the same budget', async ({ app }) => {
    await app.goto();
    await expect(app.scenarioPicker).toHaveValue('retry-policy');

    await expect(app.column('naive')).toBeVisible();
    await expect(app.column('compiled')).toBeVisible();
    await expect(app.tokens('naive')).toHaveText('90 / 96 tokens');
    await expect(app.entries('naive')).toHaveCount(5);
    await expect(app.page.getByTestId('illegal-count-naive')).toContainText('5 illegal records let in');
    await expect(app.page.getByTestId('required-missed-naive')).toContainText('Required missed: ADR-0234');
    for (const id of DEFAULT.naive.selected) await expect(app.entry('naive', id)).toContainText('illegal');
    await expect(app.entry('naive', 'ADR-0234')).toHaveCount(0);

    await expect(app.tokens('compiled')).toHaveText('74 / 96 tokens');
    await expect(app.entries('compiled')).toHaveCount(4);
    await expect(app.page.getByTestId('illegal-count-compiled')).toContainText('0 illegal records let in');
    await expect(app.page.getByTestId('required-missed-compiled')).toHaveText('✓ No required record missed');
    await expect(app.entry('compiled', 'ADR-0234')).toContainText('required');
    await expect(app.entries('compiled')).toHaveText(DEFAULT.selected.map((id) => new RegExp(`^${id}`)));
    expect(await app.packetIds('compiled')).toEqual(DEFAULT.selected);
    expect(await app.packetIds('naive')).toEqual(DEFAULT.naive.selected);

    await expect(app.auditSelected).toHaveText('4');
    await expect(app.page.getByTestId('audit-excluded')).toHaveText('9');
    await expect(app.auditBudget).toHaveText('74 / 96 tokens');
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    expect(await app.receiptId()).toBe(DEFAULT.receiptId);
  });

  test('every one of the 13 candidates has a decision, a reason code and a boundary fact', async ({ app }) => {
    await app.goto();
    await expect(app.traceCount).toHaveText('Showing 13 of 13 candidates');
    const rows = await app.readTrace();
    expect(rows.map((row) => row.id).sort()).toEqual(Object.keys(DEFAULT.trace).sort());
    for (const row of rows) {
      expect(row.decision, row.id).toBe(DEFAULT.selected.includes(row.id) ? 'selected' : 'excluded');
      // The golden trace is "CODE: fact", exactly as the receipt records it.
      expect(`${row.code}: ${row.fact}`, row.id).toBe(DEFAULT.trace[row.id]);
    }
  });

  test('fire drill: a frozen receipt goes stale after the late change; recompiling makes RUN-0880 required', async ({
    app,
  }) => {
    await app.goto();
    const drill = app.drill;
    expect(await app.freezeReceipt()).toBe(DEFAULT.receiptId.slice(0, 12));

    await expect(drill.getByRole('combobox', { name: 'Late change' })).toHaveValue('promote-run-0880');
    await app.injectLateChange();
    await expect(drill.getByTestId('drill-declared')).toContainText('Late correction: RUN-0880 is required');

    expect(await app.attemptToContinue()).toEqual({
      action: 'recompile_required',
      headline: 'STALE — RECOMPILE REQUIRED',
      code: 'STALE_CONTRACT_FINGERPRINT',
    });
    await expect(drill.getByTestId('drill-headline')).toHaveText('STALE — RECOMPILE REQUIRED');

    expect(await app.recompileAfterDrill()).toEqual({
      action: 'continue',
      headline: 'CURRENT — MAY CONTINUE',
      code: 'RECEIPT_CURRENT',
    });
    await expect(app.auditReceipt).toHaveText(LATE.receiptId.slice(0, 12));
    expect(await app.receiptId()).toBe(LATE.receiptId);
    await expect(drill.getByTestId('drill-frozen')).toHaveText(`Frozen: ${LATE.receiptId.slice(0, 12)}`);
    // What is compiled now is beside the drill: RUN-0880 is required context.
    await expect(app.page.getByTestId('drill-current-RUN-0880')).toContainText('required');

    await app.openWorkspace('Debugger');
    await expect(app.entry('compiled', 'RUN-0880')).toContainText('required');
    await expect(app.page.getByTestId('required-missed-naive')).toContainText('ADR-0234, RUN-0880');
    await expect(app.auditBudget).toHaveText(`${LATE.tokens.replace('/', ' / ')} tokens`);
    const run0880 = await app.record('RUN-0880');
    expect(run0880.decision).toBe('selected');
    expect(`${run0880.code}: ${run0880.fact}`).toBe(LATE.trace['RUN-0880']);
    expect(await app.packetIds('compiled')).toEqual(LATE.selected);
  });

  test('removing required provenance fails closed with no packet; restoring it lets the packet be copied', async ({
    app,
  }) => {
    await app.goto();
    const removeProvenance = app.control('Remove required provenance');
    await removeProvenance.check();
    await app.compileButton.click();

    await expect(app.page.getByTestId('fail-closed-code')).toHaveText('REQUIRED_MISSING_PROVENANCE');
    await expect(app.failClosed).toHaveText(/^FAIL-CLOSED — /);
    // A red state: the banner's border is clearly red, in either theme.
    const [red = 0, green = 0, blue = 0] =
      (await app.failClosed.evaluate((element) => getComputedStyle(element).borderTopColor))
        .match(/\d+/g)
        ?.map(Number) ?? [];
    expect(red - Math.max(green, blue), 'fail-closed border redness').toBeGreaterThan(80);
    await expect(app.auditOutcome).toHaveText('Fail-closed: no packet');
    await expect(app.page.getByTestId('no-packet')).toBeVisible();
    await expect(app.entries('compiled')).toHaveCount(0);
    await expect(app.copyPacketButton).toHaveCount(0);
    await expect(app.page.getByRole('button', { name: 'Download packet' })).toHaveCount(0);
    await expect(app.page.getByTestId('packet-text')).toHaveCount(0);

    await removeProvenance.uncheck();
    await app.compileButton.click();
    await expect(app.failClosed).toHaveCount(0);
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await expect(app.auditReceipt).toHaveText(DEFAULT.receiptId.slice(0, 12));

    await app.copyPacketButton.click();
    await expect(app.page.getByTestId('export-status')).toHaveText(
      `Packet copied (receipt ${DEFAULT.receiptId.slice(0, 12)}).`,
    );
    const copied = await app.page.evaluate(() => navigator.clipboard.readText());
    const header = copied.split('\n').slice(0, 7);
    expect(header[0]).toBe('=== CONTEXT PACKET ===');
    expect(header[1]).toBe(`receipt: ${DEFAULT.receiptId}`);
    expect(header[2]).toMatch(/^packet fingerprint: sha256:[0-9a-f]{64}$/);
    expect(header[3]).toMatch(/^contract fingerprint: sha256:[0-9a-f]{64}$/);
    expect(header[4]).toMatch(/^record set: sha256:[0-9a-f]{64}$/);
    expect(header[6]).toBe('======================');
    DEFAULT.selected.forEach((id, index) => expect(copied).toContain(`[${index + 1}] ${id}: `));
    for (const id of DEFAULT.naive.illegal) expect(copied).not.toContain(id);
    expect(copied).toBe(await app.page.getByTestId('packet-text').textContent());
  });

  test('the user view hides records excluded for authorisation or deny reasons behind a count', async ({ app }) => {
    await app.goto();
    const withheld = ['SEC-0042', 'LGL-0007'];
    await expect(app.page.getByRole('radio', { name: 'Diagnostic view' })).toBeChecked();
    await expect(app.traceCount).toHaveText('Showing 13 of 13 candidates');
    for (const id of withheld) {
      await app.page.getByRole('searchbox', { name: 'Search trace' }).fill(id);
      await expect(app.traceRow(id)).toBeVisible();
    }
    await app.page.getByRole('searchbox', { name: 'Search trace' }).fill('');

    await app.page.getByRole('radio', { name: 'User view' }).check();
    await expect(app.page.getByTestId('withheld-notice')).toHaveText('2 records are outside the authorised scope.');
    await expect(app.traceCount).toHaveText('Showing 11 of 11 candidates');
    const rows = await app.readTrace();
    expect(rows.map((row) => row.id).sort()).toEqual(
      Object.keys(DEFAULT.trace)
        .filter((id) => !withheld.includes(id))
        .sort(),
    );
    for (const id of withheld) await expect(app.page.getByText(id)).toHaveCount(0);

    await app.page.getByRole('radio', { name: 'Diagnostic view' }).check();
    await expect(app.page.getByTestId('withheld-notice')).toHaveCount(0);
    await expect(app.traceCount).toHaveText('Showing 13 of 13 candidates');
  });

  test('the README walkthrough: every label it names is on screen where it says, and each step gives what it says', async ({
    app,
    page,
  }) => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Try it in the app'), readme.indexOf('Click any record id'));
    const steps = [...section.matchAll(/^(\d)\. ([\s\S]*?)(?=^\d\. |$(?![\s\S]))/gm)].map((match) => match[2] ?? '');
    expect(steps, 'five numbered steps').toHaveLength(5);
    const bold = (text: string) => [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1] ?? '');
    const italic = (text: string) => [...text.matchAll(/(?<!\*)\*([^*]+)\*(?!\*)/g)].map((match) => match[1] ?? '');
    const coded = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
    /** A bold label is something to press or look under: a button, a tab or a titled group of switches. */
    const expectLabels = async (text: string) => {
      for (const label of bold(text)) {
        const control = page
          .getByRole('button', { name: label, exact: true })
          .or(page.getByRole('tab', { name: label, exact: true }))
          .or(page.getByRole('group', { name: label, exact: true }));
        await expect(control.first(), `"${label}" is on screen`).toBeVisible();
      }
      for (const label of italic(text))
        await expect(
          page
            .getByRole('switch', { name: label, exact: true })
            .or(page.getByRole('option', { name: label, exact: true }))
            .first(),
          `"${label}" is a switch or a choice`,
        ).toBeAttached();
    };
    const [, , drillStep = '', controlStep = '', copyStep = ''] = steps;
    expect(coded(drillStep)).toEqual([
      'STALE — RECOMPILE REQUIRED',
      'STALE_CONTRACT_FINGERPRINT',
      'requiredRecords',
      'CURRENT — MAY CONTINUE',
    ]);
    expect(coded(controlStep)).toEqual(['REQUIRED_MISSING_PROVENANCE']);
    await app.goto();
    await expect(page.getByRole('button', { name: 'Start guided tour' })).toBeVisible();

    await app.openWorkspace('Fire drill');
    await expectLabels(drillStep);
    const drill = app.drill;
    await drill.getByRole('button', { name: 'Freeze receipt' }).click();
    await expect(drill.getByTestId('drill-frozen')).toHaveText(`Frozen: ${DEFAULT.receiptId.slice(0, 12)}`);
    await expect(drill.getByRole('combobox', { name: 'Late change' }).locator('option:checked')).toHaveText(
      'Late correction: RUN-0880 is required',
    );
    await drill.getByRole('button', { name: 'Inject late change' }).click();
    await expect(drill.getByTestId('drill-declared')).toBeVisible();
    await drill.getByRole('button', { name: 'Attempt to continue' }).click();
    await expect(drill.getByTestId('drill-headline')).toHaveText('STALE — RECOMPILE REQUIRED');
    await expect(drill.getByTestId('drill-code')).toHaveText('STALE_CONTRACT_FINGERPRINT');
    await expect(drill.getByTestId('diff-contract')).toContainText(/requiredRecords.*RUN-0880/);
    await drill.getByRole('button', { name: 'Recompile current context' }).click();
    await expect(drill.getByTestId('drill-headline')).toHaveText('CURRENT — MAY CONTINUE');
    await expect(page.getByTestId('drill-current-RUN-0880')).toContainText('required');
    await drill.getByRole('button', { name: 'Reset drill' }).click();
    await expect(page.getByTestId('drill-current-RUN-0880')).toHaveCount(0);

    await app.openWorkspace('Debugger');
    await expectLabels(controlStep);
    await app.control('Remove required provenance').check();
    await expect(page.getByTestId('fail-closed-code')).toHaveText('REQUIRED_MISSING_PROVENANCE');
    await expect(app.page.getByTestId('no-packet')).toBeVisible();

    await app.control('Remove required provenance').uncheck();
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await expectLabels(copyStep);
    await app.copyPacketButton.click();
    await expect(page.getByTestId('export-status')).toHaveText(
      `Packet copied (receipt ${DEFAULT.receiptId.slice(0, 12)}).`,
    );
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split('\n')[0]).toBe('=== CONTEXT PACKET ===');
    DEFAULT.selected.forEach((id, index) => expect(copied).toContain(`[${index + 1}] ${id}: `));
    expect(copied, 'the late change was taken back out').not.toContain('RUN-0880');
  });
});
