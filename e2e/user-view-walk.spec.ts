import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, type AppPage } from './fixtures';

const BUILT_IN = ['retry-policy', 'atlas-credit-review', 'refund-desk'] as const;

interface RecordText {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/** Every record a scenario can put on screen: its records file and the records its controls and late changes add. */
function recordsOf(scenario: string): Map<string, RecordText> {
  const folder = new URL(`../fixtures/${scenario}/`, import.meta.url);
  const byId = new Map<string, RecordText>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') {
      const item = value as Record<string, unknown>;
      if (typeof item.id === 'string' && typeof item.title === 'string' && typeof item.text === 'string')
        byId.set(item.id, { id: item.id, title: item.title, text: item.text });
      Object.values(item).forEach(collect);
    }
  };
  for (const line of readFileSync(new URL('records.jsonl', folder), 'utf8').split('\n'))
    if (line.trim() !== '') collect(JSON.parse(line));
  collect(JSON.parse(readFileSync(new URL('scenario.json', folder), 'utf8')));
  return byId;
}

/** The page's whole text, hidden panels included, with every attribute a screen reader or tooltip may read. */
function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts = [document.body.textContent ?? ''];
    for (const element of document.querySelectorAll('*')) {
      for (const name of ['aria-label', 'aria-description', 'title', 'alt', 'placeholder']) {
        const value = element.getAttribute(name);
        if (value) parts.push(value);
      }
    }
    for (const field of document.querySelectorAll('input, textarea')) parts.push((field as HTMLInputElement).value);
    return parts.join('\n');
  });
}

/** What of a withheld record a text shows: its id, its title or its text. */
function leaks(text: string, withheld: readonly RecordText[]): string[] {
  return withheld.flatMap((record) =>
    [record.id, record.title, record.text]
      .filter((needle) => text.includes(needle))
      .map((needle) => `${record.id}: ${needle.slice(0, 60)}`),
  );
}

async function traceIds(app: AppPage): Promise<Set<string>> {
  return new Set((await app.readTrace()).map((row) => row.id));
}

async function setView(app: AppPage, view: 'User view' | 'Diagnostic view'): Promise<void> {
  await app.openWorkspace('Debugger');
  await app.setDisclosure(view);
}

/** Each download the button gives, as text. */
async function download(page: Page, name: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  const path = await file.path();
  return readFileSync(path, 'utf8');
}

test.describe('the user view shows nothing of a withheld record, in any panel, control state or download', () => {
  test.use({ viewport: { width: 1440, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });

  for (const scenario of BUILT_IN) {
    test(scenario, async ({ app, page }) => {
      test.setTimeout(300_000);
      const records = recordsOf(scenario);
      await app.goto();
      await app.selectScenario(scenario);
      const controls = await page
        .getByRole('switch')
        .evaluateAll((elements) =>
          elements.map((element) => element.getAttribute('aria-describedby')?.replace(/^control-help-/, '') ?? ''),
        );
      const labels = await page
        .getByRole('switch')
        .evaluateAll((elements) => elements.map((element) => element.closest('label')?.textContent?.trim() ?? ''));
      const states: (number | null)[] = [null, ...controls.map((_id, index) => index)];
      let everWithheld = 0;
      for (const state of states) {
        await setView(app, 'Diagnostic view');
        // One control on at a time; its label is read in the diagnostic view, which names everything.
        for (const [index, label] of labels.entries()) await app.setControl(label, index === state);
        const diagnostic = await traceIds(app);
        await setView(app, 'User view');
        const shown = await traceIds(app);
        // Withheld: what the diagnostic view lists and the user view does not (a deny, a missing role or purpose).
        const withheld = [...diagnostic]
          .filter((id) => !shown.has(id))
          .map((id) => records.get(id) ?? { id, title: id, text: id });
        everWithheld += withheld.length;
        const where = `${scenario}, ${state === null ? 'no control' : `control "${labels[state] ?? ''}"`}`;
        const found: string[] = [];
        const report = (panel: string, text: string) => {
          for (const leak of leaks(text, withheld)) found.push(`${panel}: ${leak}`);
        };
        const look = async (panel: string) => report(panel, await pageText(page));

        await look('debugger');
        await expect(
          page.getByRole('button', { name: 'Export scenario' }),
          `${where}: no scenario export in the user view`,
        ).toHaveCount(0);
        if ((await page.getByRole('button', { name: 'Download packet' }).count()) > 0) {
          report('packet download', await download(page, 'Download packet'));
          await page.getByRole('button', { name: 'Copy packet' }).click();
          report('copied packet', await page.evaluate(() => navigator.clipboard.readText()));
        }
        report('user view download', await download(page, 'Download user view'));
        // The inspector and its what-if for every record the user view names.
        for (const id of shown) {
          await page
            .getByTestId(`trace-row-${id}`)
            .getByRole('button', { name: `Inspect ${id}` })
            .click();
          const inspector = page.getByRole('dialog', { name: `Record ${id}` });
          await expect(inspector).toBeVisible();
          // The what-if section answers after the inspector opens; a record it has nothing to say about has none.
          await inspector
            .getByRole('heading', { name: /^What would/ })
            .waitFor({ timeout: 5_000 })
            .catch(() => undefined);
          await look(`inspector ${id}`);
          await page.keyboard.press('Escape');
          await expect(inspector).toHaveCount(0);
        }
        await app.openWorkspace('Evaluation');
        await look('evaluation');
        await app.openWorkspace('Tests');
        await look('tests');
        await app.openWorkspace('Fire drill');
        const drill = app.drill;
        if ((await drill.getByRole('button', { name: 'Freeze receipt' }).count()) > 0) {
          await drill.getByRole('button', { name: 'Freeze receipt' }).click();
          await drill.getByRole('button', { name: 'Inject late change' }).click();
          await drill.getByRole('button', { name: 'Attempt to continue' }).click();
          await expect(drill.getByTestId('drill-headline')).toBeVisible();
          await look('fire drill');
          await drill.getByRole('button', { name: 'Reset drill' }).click();
          await app.waitForCompiled();
        }
        expect(found, `${where}: withheld ${withheld.map((record) => record.id).join(', ') || 'none'}`).toEqual([]);
      }
      // The walk means something only where the user view withholds a record.
      if (scenario !== 'refund-desk')
        expect(everWithheld, `${scenario} withholds a record in some state`).toBeGreaterThan(0);
    });
  }
});
