import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, fixtureFile, test, type AppPage } from './fixtures';

// WCAG 2.2 AA and axe's best practices; these rules fail at any impact, every other one from serious up.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const ALWAYS = new Set(['target-size', 'landmark-unique', 'skip-link', 'landmark-no-duplicate-main', 'region']);

/** Runs axe on the whole page as it stands; a failing violation fails the test, listed by rule and element. */
async function expectNoSeriousViolations(page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const serious = results.violations
    .filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical' || ALWAYS.has(violation.id),
    )
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  expect(serious, `axe: serious or critical violations in the ${state} state`).toEqual([]);
}

async function compiled(app: AppPage): Promise<void> {
  await app.goto();
  // The trace rows are on screen too, not only the audit strip.
  await expect(app.traceCount).toHaveText(/^Showing [\d,]+ of [\d,]+ candidates$/);
}

test.describe('axe: the theme toggle shows its state, and both themes pass', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('light theme', async ({ app, page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await compiled(app);
    await expect(page.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'false');
    await expectNoSeriousViolations(page, 'light');
  });

  test('dark theme', async ({ app, page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await compiled(app);
    const toggle = page.getByRole('button', { name: 'Dark theme' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    // Pressed shows to the eye too: the toggle is filled, unlike the header's other buttons.
    const fill = (locator: typeof toggle) => locator.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await fill(toggle)).not.toBe(await fill(page.getByRole('button', { name: 'Glossary' })));
    await expectNoSeriousViolations(page, 'dark');
    await app.openWorkspace('Fire drill');
    await expectNoSeriousViolations(page, 'dark fire drill');
  });
});

// Every state in both colour schemes: the dark palette has contrasts of its own.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`axe, ${colorScheme} scheme: no serious or critical violation in any main state`, () => {
    test.use({ viewport: { width: 1440, height: 900 }, colorScheme });

    test('the glossary and the share dialog', async ({ app, page }) => {
      await compiled(app);
      await app.traceRow('ADR-0231').getByRole('button', { name: 'EXCLUDE_PROJECT' }).click();
      await expect(page.getByRole('dialog', { name: 'Glossary' })).toBeVisible();
      await expectNoSeriousViolations(page, 'glossary');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Share…' }).click();
      await page.getByRole('button', { name: 'Copy blank-session link' }).click();
      await expect(page.getByTestId('share-link')).toBeVisible();
      await expectNoSeriousViolations(page, 'share dialog');
    });

    test('the record inspector, a baseline diff with marked rows, and the as-of stepper after a step', async ({
      app,
      page,
    }) => {
      await compiled(app);
      await app.scenarioPicker.selectOption('atlas-credit-review');
      await expect(app.auditOutcome).toHaveText('Packet emitted');
      await page.getByRole('button', { name: 'Pin as baseline' }).click();
      await app.control('An officer approves a new waiver').check();
      await expect(page.getByTestId('trace-change-W-61')).toBeVisible();
      await page
        .getByTestId('as-of-stepper')
        .getByRole('button', { name: /^Next boundary/ })
        .click();
      await expect(page.getByTestId('as-of-stepper').getByTestId('receipt-diff')).toBeVisible();
      await expectNoSeriousViolations(page, 'baseline diff and as-of step');
      await app.traceRow('P2').getByRole('button', { name: 'Inspect P2' }).click();
      await expect(
        page.getByRole('dialog', { name: 'Record P2' }).getByTestId('inspector-gate-supersession'),
      ).toBeVisible();
      await expectNoSeriousViolations(page, 'record inspector');
    });

    test('the reset question and the guided tour', async ({ app, page }) => {
      await compiled(app);
      await page.getByRole('button', { name: 'Reset to built-in scenarios' }).click();
      await expect(page.getByRole('alertdialog', { name: 'Reset to the built-in scenarios?' })).toBeVisible();
      await expectNoSeriousViolations(page, 'reset question');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Start guided tour' }).click();
      const tour = page.getByRole('region', { name: 'Guided tour' });
      await expect(tour).toBeVisible();
      await expectNoSeriousViolations(page, 'guided tour');
      await tour.getByRole('button', { name: 'Next' }).click({ force: true });
      await expect(tour.getByTestId('tour-refusal')).toBeVisible();
      await expectNoSeriousViolations(page, 'guided tour, Next refused');
      await app.control('Superseded decision').check();
      await expect(tour.getByTestId('tour-shows')).toBeVisible();
      await expectNoSeriousViolations(page, 'guided tour, step done');
    });

    test('fail-closed', async ({ app, page }) => {
      await compiled(app);
      await app.control('Remove required provenance').check();
      await expect(app.failClosed).toBeVisible();
      await expectNoSeriousViolations(page, 'fail-closed');
    });

    test('fire drill: stale, then current', async ({ app, page }) => {
      await compiled(app);
      await app.openWorkspace('Fire drill');
      await app.drill.getByRole('button', { name: 'Freeze receipt' }).click();
      await app.drill.getByRole('button', { name: 'Inject late change' }).click();
      await app.drill.getByRole('button', { name: 'Attempt to continue' }).click();
      await expect(app.drill.getByTestId('drill-headline')).toHaveText('STALE — RECOMPILE REQUIRED');
      await expectNoSeriousViolations(page, 'drill stale');
      await app.drill.getByRole('button', { name: 'Recompile current context' }).click();
      await expect(app.drill.getByTestId('drill-headline')).toHaveText('CURRENT — MAY CONTINUE');
      await expectNoSeriousViolations(page, 'drill current');
    });

    test('user view', async ({ app, page }) => {
      await compiled(app);
      await page.getByRole('radio', { name: 'User view' }).check();
      await expect(page.getByTestId('withheld-notice')).toBeVisible();
      await expectNoSeriousViolations(page, 'user view');
    });

    test('Evaluation, with results', async ({ app, page }) => {
      await compiled(app);
      await app.openWorkspace('Evaluation');
      await page.getByRole('button', { name: 'Run seed 000 comparison' }).click();
      await expect(page.getByRole('table', { name: 'Seed 000 comparison' })).toBeVisible();
      await page.getByRole('button', { name: 'Run retrieval foundation' }).click();
      await expect(page.getByRole('table', { name: 'Retrieval foundation' })).toBeVisible();
      await expectNoSeriousViolations(page, 'Evaluation');
    });

    test('an invalid file', async ({ app, page }) => {
      await compiled(app);
      await app.dropFiles([fixtureFile('bad-contract.json')]);
      await expect(app.loadErrors).toBeVisible();
      await expectNoSeriousViolations(page, 'invalid file');
    });
  });

  test.describe(`axe on a phone, ${colorScheme} scheme`, () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme });

    test('each tab, and the trace as cards', async ({ app, page }) => {
      await compiled(app);
      for (const tab of ['Contract', 'Compare', 'Trace']) {
        await page.getByRole('tab', { name: tab }).click();
        await expect(page.getByRole('tabpanel', { name: tab })).toBeVisible();
        await expectNoSeriousViolations(page, `phone ${tab}`);
      }
      await expect(page.getByRole('table', { name: 'Trace' })).toHaveClass(/\bcards\b/);
    });
  });
}

test.describe('axe: the raw JSON contract editor, highlighted and with a problem flagged', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`${colorScheme} theme`, async ({ app, page }) => {
      await page.emulateMedia({ colorScheme });
      await compiled(app);
      await page.getByRole('button', { name: 'Raw JSON' }).click();
      const box = page.getByRole('textbox', { name: 'Contract JSON' });
      await box.fill((await box.inputValue()).replace('"tokenBudget"', '"tokenBudgte"'));
      await expect(page.getByTestId('contract-typed-issues')).toBeVisible();
      await expectNoSeriousViolations(page, `${colorScheme} contract editor`);
    });
  }
});
