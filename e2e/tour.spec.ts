import type { Locator, Page } from '@playwright/test';
import { expect, test, type AppPage } from './fixtures';

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The outlined target is on screen, no taller than the viewport, and the card does not cover any of it. */
async function expectCardBesideTarget(page: Page, tour: Locator, where: string): Promise<void> {
  const target = page.locator('[data-tour-target]');
  await expect(target, where).toHaveCount(1);
  await expect(target, where).toBeInViewport();
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  await expect
    .poll(
      async () => {
        const [card, outlined] = await Promise.all([tour.boundingBox(), target.boundingBox()]);
        if (!card || !outlined) return 'not laid out';
        if (outlined.height > viewport.height) return `target ${outlined.height} px tall`;
        if (
          card.y < 0 ||
          card.y + card.height > viewport.height + 1 ||
          card.x < 0 ||
          card.x + card.width > viewport.width + 1
        )
          return 'card off screen';
        return overlap(card, outlined)
          ? `card ${JSON.stringify(card)} covers target ${JSON.stringify(outlined)}`
          : 'apart';
      },
      { message: where },
    )
    .toBe('apart');
}

/**
 * The default scenario's own tour, step by step: Next refuses first, then the action is done and the card says what it
 * shows.
 */
async function walkDefaultTour(app: AppPage, page: Page): Promise<void> {
  const tour = page.getByRole('region', { name: 'Guided tour' });
  const next = tour.getByRole('button', { name: /^(Next|Finish tour)$/ });
  const progress = tour.getByTestId('tour-progress');
  const drill = app.drill;
  const steps: { readonly act: () => Promise<void>; readonly refusal: string; readonly shows: RegExp }[] = [
    {
      act: () => app.control('Superseded decision').check(),
      refusal: '“Superseded decision” is off.',
      shows: /^ADR-0198, the retry decision that ADR-0234 replaced/,
    },
    {
      act: () => app.control('Highly similar future reveal').check(),
      refusal: '“Highly similar future reveal” is off.',
      shows: /EXCLUDE_FUTURE/,
    },
    {
      act: () => drill.getByRole('button', { name: 'Freeze receipt' }).click(),
      refusal: 'Nothing is frozen.',
      shows: /^The receipt on screen is frozen/,
    },
    {
      act: () => drill.getByRole('button', { name: 'Inject late change' }).click(),
      refusal: '“Late correction: RUN-0880 is required” is not declared.',
      shows: /^Declared: RUN-0880 must now be in context/,
    },
    {
      act: () => drill.getByRole('button', { name: 'Attempt to continue' }).click(),
      refusal: 'Nobody has attempted to continue.',
      shows: /^STALE — RECOMPILE REQUIRED/,
    },
    {
      act: () => drill.getByRole('button', { name: 'Recompile current context' }).click(),
      refusal: 'The late change is declared but not compiled in.',
      shows: /^CURRENT — MAY CONTINUE/,
    },
    {
      act: () => app.control('Remove required provenance').check(),
      refusal: '“Remove required provenance” is off.',
      shows: /^REQUIRED_MISSING_PROVENANCE: ADR-0234 has no verifiable provenance/,
    },
    {
      act: () => app.control('Remove required provenance').uncheck(),
      refusal: '“Remove required provenance” is still on.',
      shows: /^The packet is back/,
    },
  ];
  for (const [index, step] of steps.entries()) {
    const where = `step ${index + 1}`;
    await expect(progress).toHaveText(`Guided tour · step ${index + 1} of 8`);
    await expect(tour.getByTestId('tour-ask'), where).toBeVisible();
    await expect(tour.getByTestId('tour-shows'), where).toHaveCount(0);
    await expectCardBesideTarget(page, tour, `${where}, before the action`);
    // Next is marked unavailable (aria-disabled) yet still answers a press, with the reason.
    await next.click({ force: true });
    await expect(tour.getByTestId('tour-refusal'), where).toContainText(`Not yet: ${step.refusal}`);
    await expect(progress).toHaveText(`Guided tour · step ${index + 1} of 8`);
    await step.act();
    await expect(tour.getByTestId('tour-shows'), where).toHaveText(step.shows);
    await expect(
      tour.getByTestId('tour-shows'),
      `${where}: what the screen shows is what the file expects`,
    ).not.toHaveClass(/tour-unexpected/);
    await expect(tour.getByTestId('tour-refusal')).toHaveCount(0);
    await expectCardBesideTarget(page, tour, `${where}, after the action`);
    if (index < steps.length - 1) await next.click();
  }
}

test.describe('Guided tour: it waits for each action', () => {
  test("at 1280×720 the default scenario's tour refuses Next until each step is done, says what happened, and never covers its target", async ({
    app,
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await app.goto();
    await app.control('Remove required provenance').check();
    await page.getByRole('button', { name: 'Start guided tour' }).click();
    const tour = page.getByRole('region', { name: 'Guided tour' });
    await expect(tour.getByRole('heading', { level: 2 })).toBeFocused();
    // It starts with every control off.
    await expect(app.control('Remove required provenance')).not.toBeChecked();
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await walkDefaultTour(app, page);
    // The screen holds what the last step says.
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await expect(app.entry('compiled', 'RUN-0880')).toBeVisible();
    await tour.getByRole('button', { name: 'Finish tour' }).press('Enter');
    await expect(tour).toHaveCount(0);
    await expect(page.locator('[data-tour-target]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start guided tour' })).toBeFocused();
  });

  test('at 390×844 too, each tab the step needs opens and the card stays off its target', async ({ app, page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await app.goto();
    await page.getByRole('button', { name: 'Start guided tour' }).click();
    await walkDefaultTour(app, page);
  });

  test('a second built-in scenario gets steps built from its controls and late changes, done by keyboard', async ({
    app,
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await app.goto();
    await app.selectScenario('refund-desk');
    await page.getByRole('button', { name: 'Start guided tour' }).click();
    const tour = page.getByRole('region', { name: 'Guided tour' });
    // Three controls, each on and off again, then the four steps of the fire drill.
    await expect(tour.getByTestId('tour-progress')).toHaveText('Guided tour · step 1 of 10');
    await expect(tour.getByRole('heading', { level: 2 })).toHaveText('Control 1 of 3: The email insists harder');
    await page.keyboard.press('ArrowRight');
    await expect(tour.getByTestId('tour-refusal')).toHaveText(
      'Not yet: “The email insists harder” is off. Switch on “The email insists harder” under Poison controls.',
    );

    // "Go to it" takes the focus to the switch; once it is on, the focus is back on Next.
    await tour.getByRole('button', { name: 'Go to it' }).click();
    await expect(app.control('The email insists harder')).toBeFocused();
    await page.keyboard.press('Space');
    await expect(tour.getByTestId('tour-shows')).toBeVisible();
    await expect(tour.getByRole('button', { name: 'Next' })).toBeFocused();
    // What the step says is what changed on screen, nothing more: this control moves neither packet.
    await expect(tour.getByTestId('tour-shows')).toHaveText(
      'Neither the compiled packet, the naive top-k nor the evidence changed. The decision is blocked by exception_approved.',
    );
    await page.keyboard.press('Enter');
    await expect(tour.getByTestId('tour-progress')).toHaveText('Guided tour · step 2 of 10');
    await expect(tour.getByTestId('tour-ask')).toHaveText(
      'Your turn: Switch “The email insists harder” off again under Poison controls.',
    );
    await tour.getByRole('button', { name: 'Go to it' }).click();
    await page.keyboard.press('Space');
    await expect(tour.getByRole('button', { name: 'Next' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(tour.getByRole('heading', { level: 2 })).toHaveText('Control 2 of 3: A manager files an approval');
    await tour.getByRole('button', { name: 'Go to it' }).click();
    await page.keyboard.press('Space');
    await expect(tour.getByTestId('tour-shows')).toHaveText(
      'Into the compiled packet: APR-481. Into the naive top-k: APR-481 (the compiler: SELECTED_EVIDENCE). Out of the naive top-k: POL-REFUND-3. Evidence: exception_approved unknown → supported. The decision is no longer blocked.',
    );
    await expectCardBesideTarget(page, tour, 'refund desk, step 3');
    await page.keyboard.press('Escape');
    await expect(tour).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start guided tour' })).toBeFocused();
  });
});
