import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const CLI = fileURLToPath(new URL('../bin/context-compiler.mjs', import.meta.url));

/** Keeps the suite shown and returns the path it was downloaded to. */
async function keep(page: Page, folder: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Keep and download' }).click();
  const file = await download;
  const path = join(folder, file.suggestedFilename());
  await file.saveAs(path);
  return path;
}

test.describe('expectations written from the screen', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('a case saved from the screen passes in the CLI; after a deliberate change, the update shows its diff and passes', async ({
    app,
    page,
  }) => {
    const folder = mkdtempSync(join(tmpdir(), 'saved-suite-'));
    await app.goto();
    await app.setControl('Future reveal', true);
    await app.openWorkspace('Tests');
    await page.getByTestId('case-name').fill('future reveal, as on screen');
    await page.getByTestId('case-records').fill('ADR-0240, RUN-0880');
    await page.getByRole('button', { name: 'Preview test case' }).click();
    const diff = page.getByTestId('suite-diff');
    await expect(diff).toContainText('"EXCLUDE_FUTURE"');
    await expect(diff.locator('[data-kind="removed"]')).toHaveCount(0);
    const saved = await keep(page, folder);
    expect(saved.endsWith('retry-policy.expect.json')).toBe(true);
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toMatchObject({
      inputs: { scenario: 'retry-policy' },
      cases: [{ controls: ['future-reveal'] }],
    });
    // The CLI runs the downloaded suite unchanged, and it passes (a failing case would exit 4 and throw here).
    expect(execFileSync(process.execPath, [CLI, 'test', saved], { encoding: 'utf8' })).toMatch(/1 passed, 0 failed/);
    expect((await app.testResults()).map((entry) => entry.passed)).toEqual([true]);

    // A deliberate change: a budget three times as large lets more records in, and the case turns red.
    await app.openWorkspace('Debugger');
    await page.getByRole('button', { name: 'Raw JSON' }).click();
    const box = page.getByRole('textbox', { name: 'Contract JSON' });
    const contract = JSON.parse(await box.inputValue()) as { tokenBudget: number };
    await box.fill(JSON.stringify({ ...contract, tokenBudget: contract.tokenBudget * 3 }));
    await page.getByRole('button', { name: 'Apply JSON' }).click();
    await app.waitForCompiled();
    expect((await app.testResults()).map((entry) => entry.passed)).toEqual([false]);
    await page.getByRole('button', { name: 'Update expectations of retry-policy.expect.json' }).click();
    await expect(diff.locator('[data-kind="removed"]').first()).toBeVisible();
    await expect(diff.locator('[data-kind="added"]').first()).toBeVisible();
    await keep(page, folder);
    expect((await app.testResults()).map((entry) => entry.passed)).toEqual([true]);
  });
});

test.describe('the suite editor', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('flags a misspelt field of an open suite as it is typed, and runs the fixed text with Ctrl+Enter', async ({
    app,
    page,
  }) => {
    await app.goto();
    await app.openWorkspace('Tests');
    await page.getByTestId('case-name').fill('the default packet');
    await page.getByRole('button', { name: 'Preview test case' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Keep and download' }).click();
    await download;
    await page.getByRole('button', { name: 'Edit retry-policy.expect.json' }).click();
    const box = page.getByRole('textbox', { name: 'Suite retry-policy.expect.json' });
    const text = await box.inputValue();
    await box.fill(text.replace('"the default packet"', '"renamed in the editor"').replace('"outcome"', '"outcom"'));
    await expect(page.getByTestId('suite-typed-issues')).toContainText('unknown field "outcom"');
    await box.fill(text.replace('"the default packet"', '"renamed in the editor"'));
    await expect(page.getByTestId('suite-typed-issues')).toHaveCount(0);
    await box.press('Control+Enter');
    expect((await app.testResults()).map((entry) => [entry.name, entry.passed])).toEqual([
      ['renamed in the editor', true],
    ]);
  });
});
