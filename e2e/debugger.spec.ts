import type { Locator } from '@playwright/test';
import { expect, test, type AppPage } from './fixtures';

/** What the user view must never show of Atlas's withheld investigation note (its id, title, role, label, class). */
const WITHHELD = /X9|Investigation note|financial_crime|investigation_note|fcu\/cases/;

async function atlas(app: AppPage): Promise<void> {
  await app.goto();
  await app.scenarioPicker.selectOption('atlas-credit-review');
  await expect(app.auditOutcome).toHaveText('Packet emitted');
}

async function expectNothingWithheld(region: Locator): Promise<void> {
  expect(await region.innerText()).not.toMatch(WITHHELD);
}

test.describe('What playgrounds have, and what none has: inspector, coverage, attempts, baseline, as-of', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the record inspector opens from a trace row by keyboard, explains every gate in order, and gives the focus back', async ({
    app,
    page,
  }) => {
    await atlas(app);
    const link = app.traceRow('P2').getByRole('button', { name: 'Inspect P2' });
    await link.focus();
    await page.keyboard.press('Enter');
    const inspector = page.getByRole('dialog', { name: 'Record P2' });
    await expect(inspector.getByRole('heading', { name: 'Record P2' })).toBeFocused();
    const gates = inspector.getByRole('list', { name: 'Gates in order' }).getByRole('listitem');
    await expect(gates).toHaveCount(14);
    await expect(gates.first()).toContainText('project');
    await expect(inspector.getByTestId('inspector-gate-supersession')).toContainText(
      'failed: EXCLUDE_SUPERSEDED superseded by P3 (in force from 2026-07-22)',
    );
    await expect(inspector.getByTestId('inspector-gate-time')).toContainText('passed');
    await expect(inspector.getByTestId('inspector-fields')).toContainText('policy-library/P2');
    await expect(inspector.getByTestId('inspector-receipt-row')).toContainText('"fact": "SUPERSEDED_BY"');
    // A successor is a way to its own record.
    await inspector.getByTestId('inspector-supersession').getByRole('button', { name: 'Inspect P3' }).click();
    await expect(page.getByRole('dialog', { name: 'Record P3' }).getByTestId('inspector-packet')).toHaveText(
      /^yes, entry \d$/,
    );
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(link).toBeFocused();
  });

  test('Compare: each naive entry gives its reason code and opens the inspector; the coverage table shows what each packet answers', async ({
    app,
    page,
  }) => {
    await atlas(app);
    await expect(page.getByTestId('entry-code-naive-N7')).toHaveText('EXCLUDE_EVIDENCE_CLASS');
    await expect(page.getByTestId('entry-code-naive-TG-2019')).toHaveText('EXCLUDE_LIFECYCLE');
    await expect(app.entry('naive', 'N7')).toContainText('illegal: EXCLUDE_EVIDENCE_CLASS');
    await expect(page.getByTestId('propositions-naive')).toHaveText('✗ 4 of 4 required propositions not answered');
    await expect(page.getByTestId('propositions-compiled')).toHaveText('✗ 1 of 4 required propositions not answered');
    await expect(page.getByTestId('coverage-naive-waiver_valid')).toHaveText(
      '✗ not answered; mentioned by N7, X9, a class not accepted for it',
    );
    await expect(page.getByTestId('coverage-compiled-facility_limit')).toHaveText('✓ F-102');
    await app.entry('naive', 'N7').getByRole('button', { name: 'Inspect N7' }).click();
    await expect(page.getByRole('dialog', { name: 'Record N7' }).getByTestId('inspector-gate-evidence')).toContainText(
      'failed: EXCLUDE_EVIDENCE_CLASS',
    );
  });

  test('Evidence names the records that tried "waiver_valid" and why each failed; the decision reserved for a person is in the audit strip', async ({
    app,
    page,
  }) => {
    await atlas(app);
    await expect(page.getByTestId('audit-decision')).toHaveText('Reserved for a person');
    await expect(page.getByTestId('audit-decision')).toHaveAttribute('title', 'waiver_valid not established');
    await expect(page.getByTestId('decision-blocked')).toHaveText(
      'Decision reserved for a person: waiver_valid not established from admitted evidence.',
    );
    const attempts = page.getByTestId('attempts-waiver_valid');
    await expect(attempts.getByTestId('attempt-waiver_valid-W-55')).toContainText(
      'refused by a gate · EXCLUDE_EXPIRED valid_to 2026-08-28 < as_of 2026-08-30',
    );
    await expect(attempts.getByTestId('attempt-waiver_valid-N7')).toContainText(
      'EXCLUDE_EVIDENCE_CLASS class case_note is not accepted for waiver_valid',
    );
    await expect(attempts.getByTestId('attempt-waiver_valid-X9')).toContainText('EXCLUDE_NOT_AUTHORISED');
  });

  test('pin a baseline, switch a control on: the diff lists the contract, evidence and packet changes and the trace marks the rows', async ({
    app,
    page,
  }) => {
    await atlas(app);
    const baseline = page.getByTestId('baseline-panel');
    await baseline.getByRole('button', { name: 'Pin as baseline' }).click();
    await expect(baseline.getByTestId('baseline-same')).toBeVisible();
    await app.control('An officer approves a new waiver').check();
    await expect(baseline.getByTestId('diff-packet')).toContainText('in: W-61');
    await expect(baseline.getByTestId('diff-evidence')).toContainText(
      'waiver_valid unknown → supported (records - → W-61)',
    );
    await expect(baseline.getByTestId('diff-fields')).toContainText('controls [] → [officer-approves-waiver]');
    await expect(page.getByTestId('trace-change-W-61')).toHaveText('◆ new since the baseline');
    await expect(page.getByTestId('trace-change-F-311')).toHaveCount(0);
    await expect(page.getByTestId('audit-decision')).toHaveText('May rest on the packet');
    await baseline.getByRole('button', { name: 'Clear baseline' }).click();
    await expect(page.getByTestId('trace-change-W-61')).toHaveCount(0);
  });

  test('the as-of stepper: to the next boundary and back a day, with what each step changed, in the form and marked as an edit', async ({
    app,
    page,
  }) => {
    await atlas(app);
    const stepper = page.getByTestId('as-of-stepper');
    await expect(page.getByTestId('as-of-current')).toHaveText('2026-08-30');
    await stepper.getByRole('button', { name: 'Next boundary, 2026-08-31' }).click();
    await expect(page.getByTestId('as-of-current')).toHaveText('2026-08-31');
    await expect(page.getByRole('textbox', { name: 'As of' })).toHaveValue('2026-08-31');
    await expect(page.getByRole('heading', { name: 'Contract (edited)' })).toBeVisible();
    await expect(stepper.getByTestId('diff-contract')).toContainText(
      'asOf 2026-08-30T00:00:00.000Z → 2026-08-31T00:00:00.000Z',
    );
    await expect(stepper.getByTestId('diff-packet')).toContainText('in: P4-LOCAL');
    await expect(stepper.getByTestId('diff-packet')).toContainText('out: ADD-7');
    await stepper.getByRole('button', { name: '− 1 day' }).click();
    await expect(page.getByTestId('as-of-current')).toHaveText('2026-08-30');
    await expect(stepper.getByTestId('diff-packet')).toContainText('in: ADD-7');
    await app.control('Move the decision by one day').check();
    await expect(page.getByTestId('as-of-locked')).toContainText('“Move the decision by one day” sets the as-of');
  });

  test('noninterference: in the user view the inspector, attempts, coverage, baseline diff and as-of stops name no withheld record, and a change to one shows only the switch that was pressed', async ({
    app,
    page,
  }) => {
    await atlas(app);
    await page.getByRole('radio', { name: 'User view' }).check();
    await expect(page.getByTestId('withheld-notice')).toHaveText('1 record is outside the authorised scope.');
    await expect(page.getByTestId('attempts-waiver_valid')).toContainText('W-55');
    const baseline = page.getByTestId('baseline-panel');
    await baseline.getByRole('button', { name: 'Pin as baseline' }).click();
    await expect(baseline.getByTestId('baseline-same')).toBeVisible();
    // The permit changes only the withheld record: the user view reports the switch the user pressed and nothing else
    // (the diagnostic view adds the record-set digest, X9's changed record and its new reason).
    await app.control('Grant the credit team a permit to a record you may not see').check();
    const diff = baseline.getByRole('group', { name: 'What changed from the baseline to what is compiled now' });
    await expect(diff.getByTestId('diff-fields').getByRole('listitem')).toHaveText([
      'controls [] → [grant-agent-permit]',
    ]);
    for (const section of ['diff-first', 'diff-records', 'diff-decisions', 'diff-rows', 'diff-evidence', 'diff-packet'])
      await expect(diff.getByTestId(section)).toHaveCount(0);
    await page
      .getByTestId('as-of-stepper')
      .getByText(/Nearby boundaries/)
      .click();
    for (const region of [
      page.getByRole('region', { name: 'Compare' }),
      page.getByRole('region', { name: 'Evidence' }),
      baseline,
      page.getByTestId('as-of-stepper'),
      page.getByRole('region', { name: 'Trace' }),
    ])
      await expectNothingWithheld(region);
    // X9 became known on 2026-08-20: no boundary there in the user view.
    await expect(page.getByTestId('as-of-stop-2026-08-20')).toHaveCount(0);
    await app.traceRow('W-55').getByRole('button', { name: 'Inspect W-55' }).click();
    const inspector = page.getByRole('dialog', { name: 'Record W-55' });
    await expect(inspector.getByTestId('inspector-gate-time')).toContainText('EXCLUDE_EXPIRED');
    await expect(inspector.getByText('Receipt row (as the user view has it)')).toBeVisible();
    await expectNothingWithheld(inspector);
  });
});
