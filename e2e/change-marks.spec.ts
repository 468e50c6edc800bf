import { expect, test } from './fixtures';

test.describe('what each change did, against the compilation before it', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('switching "Superseded decision" on marks ADR-0198 entering the naive packet and its new trace row; switching it off marks it leaving', async ({
    app,
  }) => {
    await app.goto();
    await expect(app.page.getByTestId('marks-summary')).toHaveText('');
    await expect(app.page.locator('.change-mark')).toHaveCount(0);

    await app.setControl('Superseded decision', true);
    const entered = app.page.getByTestId('entered-naive-ADR-0198');
    await expect(entered).toBeVisible();
    await expect(entered).toHaveText(
      /^◆ entered: ADR-0198, illegal · EXCLUDE_SUPERSEDED Replaced by a record in force at the as-of time\.$/,
    );
    await expect(app.entry('naive', 'ADR-0198')).toHaveClass(/entered/);
    await expect(app.page.getByTestId('marks-summary')).toContainText('naive top-k: 1 entry entered');
    await expect(app.page.getByTestId('marks-summary')).not.toContainText('compiled packet');
    await expect(app.page.getByTestId('trace-mark-ADR-0198')).toHaveText(/◆ new at the last change/);
    // Nothing pinned: the pinned-baseline badge stays off.
    await expect(app.page.getByTestId('trace-change-ADR-0198')).toHaveCount(0);

    await app.setControl('Superseded decision', false);
    await expect(entered).toHaveCount(0);
    const left = app.page.getByTestId('left-naive-ADR-0198');
    await expect(left).toBeVisible();
    await expect(left).toHaveText(
      '◆ left: ADR-0198 Retry backoff policy for card authorisation timeouts (2024), no longer among the records',
    );
    await expect(app.page.getByTestId('marks-summary')).toContainText(/naive top-k: \d+ entr(y|ies) entered, 1 left/);
    await expect(app.traceRow('ADR-0198')).toHaveCount(0);
  });
});
