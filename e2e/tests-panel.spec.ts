import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { AppPage, expect, test } from './fixtures';

const POISON_SUITE = fileURLToPath(new URL('../fixtures/retry-policy/poison-controls.expect.json', import.meta.url));
const DEFAULT_CASE = 'default: the binding decision is kept and the packet is legal';

test.describe('the Tests panel', () => {
  test('a shipped suite opens and every case passes on the built-in scenario, and is open again after a reload', async ({
    app,
    page,
  }) => {
    await app.goto();
    const results = await app.openSuites([POISON_SUITE]);
    expect(results.length).toBeGreaterThanOrEqual(7);
    expect(results.filter((entry) => !entry.passed)).toEqual([]);
    expect(results[0]).toMatchObject({ suite: 'retry-policy: the seven poison controls', name: DEFAULT_CASE });
    await expect(app.tests.getByTestId('tests-summary')).toHaveText(`${results.length} passing, 0 failing.`);
    await page.reload();
    await app.waitForCompiled();
    expect(await app.testResults()).toEqual(results);
  });

  test('a case turns red when a control changes what it expects, says why, links to the contract, and turns green again', async ({
    app,
    page,
  }) => {
    await app.goto();
    await app.openSuites([POISON_SUITE]);
    await app.openWorkspace('Debugger');
    await app.setControl('Required record over budget', true);
    const results = await app.testResults();
    const red = results.find((entry) => entry.name === DEFAULT_CASE);
    expect(red?.passed).toBe(false);
    expect(red?.mismatches[0]).toMatchObject({
      place: expect.stringMatching(/^line \d+: cases\[0\]\.expect\.outcome$/),
      subject: 'outcome',
      expected: 'packet',
      actual: expect.stringMatching(/^fail_closed /),
    });
    await expect(app.testCase(DEFAULT_CASE)).toHaveAttribute('data-passed', 'false');

    await app.testCase(DEFAULT_CASE).getByRole('button', { name: 'Show the contract (outcome)' }).click();
    await expect(
      page.getByRole('navigation', { name: 'Workspace' }).getByRole('button', { name: 'Debugger', exact: true }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('#contract-heading')).toBeVisible();
    await app.setControl('Required record over budget', false);
    expect((await app.testResults()).find((entry) => entry.name === DEFAULT_CASE)?.passed).toBe(true);
  });

  test('a suite dropped on the page opens in the Tests panel', async ({ app, page }) => {
    await app.goto();
    const suite = {
      suite: 'exercise',
      inputs: { scenario: 'retry-policy' },
      cases: [{ name: 'keeps the binding decision', expect: { selected: { includes: ['ADR-0234'] } } }],
    };
    await app.dropFiles([{ name: 'exercise.expect.json', text: JSON.stringify(suite, null, 2) }]);
    await expect(
      page.getByRole('navigation', { name: 'Workspace' }).getByRole('button', { name: 'Tests', exact: true }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(app.loadResult).toContainText('exercise.expect.json (expectation suite)');
    expect(await app.testResults()).toEqual([
      { suite: 'exercise', name: 'keeps the binding decision', passed: true, mismatches: [] },
    ]);
  });

  test('axe: no serious or critical violation on the panel with a failing case', async ({ app, page }) => {
    await app.goto();
    await app.openSuites([POISON_SUITE]);
    await app.openWorkspace('Debugger');
    await app.setControl('Required record over budget', true);
    await app.testResults();
    await expect(app.testCase(DEFAULT_CASE)).toHaveAttribute('data-passed', 'false');
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      if (theme === 'dark') await page.getByRole('button', { name: 'Dark theme' }).click();
      const results = await new AxeBuilder({ page }).include('[data-testid="tests-panel"]').analyze();
      const serious = results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      expect(serious, `axe on the Tests panel, ${theme} theme`).toEqual([]);
    }
  });

  test.describe('suites travel', () => {
    test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

    test('a share link carries the open suites to a fresh browser, which runs them on the shared inputs', async ({
      app,
      page,
      browser,
    }) => {
      await app.goto();
      const sent = await app.openSuites([POISON_SUITE]);
      await app.openWorkspace('Debugger');
      await app.setControl('Required record over budget', true);
      const red = await app.testResults();
      await app.openWorkspace('Debugger');
      await page.getByRole('button', { name: 'Share…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Share this workspace' });
      await dialog.getByRole('button', { name: 'Copy share link' }).click();
      await expect(dialog.getByTestId('share-link')).toHaveValue(/#share=1\./);
      const link = await dialog.getByTestId('share-link').inputValue();
      await dialog.getByRole('button', { name: 'Close' }).click();

      const context = await browser.newContext();
      const other = new AppPage(await context.newPage());
      await other.page.goto(link);
      await other.waitForCompiled();
      const received = await other.testResults();
      expect(received).toEqual(red);
      expect(received.map((entry) => entry.name)).toEqual(sent.map((entry) => entry.name));
      expect(received.find((entry) => entry.name === DEFAULT_CASE)?.passed).toBe(false);
      await context.close();
    });
  });
});
