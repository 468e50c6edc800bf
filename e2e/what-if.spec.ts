import { expect, test } from './fixtures';

test.describe('what would admit this record', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('an excluded record lists the changes that admit it, each verified by compiling it; applying one admits it; the user view does not name it', async ({
    app,
  }) => {
    await app.goto();
    await app.traceSearch.fill('LGL-0007');
    await app.traceRow('LGL-0007').getByRole('button', { name: 'Inspect LGL-0007' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Record LGL-0007' });
    await expect(dialog.getByTestId('inspector-code')).toHaveText('EXCLUDE_DENY_LABEL');
    await expect(dialog.getByRole('heading', { name: 'What would admit it' })).toBeVisible();
    const drop = dialog.getByTestId('what-if-DROP_DENY_LABELS');
    await expect(drop).toContainText('stop denying the labels [legal_hold]');
    await expect(drop).toContainText(
      /verified by compiling the contract with this change \(contract [0-9a-f]{12}\): (selected|excluded) · [A-Z_]+/,
    );

    await drop.getByRole('button', { name: 'Apply to the contract' }).click();
    await app.waitForCompiled();
    await expect(dialog.getByTestId('inspector-gate-deny')).toContainText('passed');
    await expect(dialog.getByText('It passed every gate; what the plan decided is its reason above.')).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'What would exclude it' })).toBeVisible();
    await expect(dialog.getByTestId('what-if-DENY_LABEL')).toContainText('deny the label legal_hold');

    // Back to the label denied: in the user view the record is withheld, and neither it nor any suggestion is named.
    await dialog.getByTestId('what-if-DENY_LABEL').getByRole('button', { name: 'Apply to the contract' }).click();
    await app.waitForCompiled();
    await expect(dialog.getByTestId('inspector-code')).toHaveText('EXCLUDE_DENY_LABEL');
    await dialog.getByRole('button', { name: 'Close inspector' }).click();
    await app.setDisclosure('User view');
    await app.traceSearch.fill('LGL-0007');
    await expect(app.page.getByTestId('trace-count')).toContainText('Showing 0 of');
    // A record the view shows is answered on the records it shows; a change to the record itself is applied as a new
    // revision.
    await app.traceSearch.fill('RUN-0866');
    await app.traceRow('RUN-0866').getByRole('button', { name: 'Inspect RUN-0866' }).click();
    const visible = app.page.getByRole('dialog', { name: 'Record RUN-0866' });
    await expect(visible.getByTestId('what-if')).toContainText(
      'Each change below was compiled on the records this view shows',
    );
    await expect(visible.getByTestId('what-if-SUPPLY_PROVENANCE')).toContainText(
      'verified by compiling the record with this change',
    );
    await visible
      .getByTestId('what-if-SUPPLY_PROVENANCE')
      .getByRole('button', { name: 'Apply to the record (a new revision)' })
      .click();
    await app.waitForCompiled();
    await expect(visible.getByTestId('inspector-gate-provenance')).toContainText('passed');
    await expect(visible.getByRole('heading', { name: 'What would exclude it' })).toBeVisible();
  });
});
