import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, type AppPage } from './fixtures';

const RECORDS = readFileSync(join(import.meta.dirname, '../fixtures/retry-policy/records.jsonl'), 'utf8');

/** The retry-policy records with only the title of LGL-0007 (withheld from the user view: a legal hold) changed. */
const RETITLED = RECORDS.split('\n')
  .map((line) =>
    line.includes('"LGL-0007"')
      ? JSON.stringify({ ...(JSON.parse(line) as object), title: 'Another title for the legal hold' })
      : line,
  )
  .join('\n');

/** The header as it reads, but for the offline status, which follows the service worker, not the compilation. */
const headerText = (page: Page) =>
  page.locator('header.app-header').evaluate((header) => {
    const copy = header.cloneNode(true) as HTMLElement;
    copy.querySelector('[data-testid="offline-status"]')?.remove();
    return copy.textContent;
  });

/**
 * Drops `records` as `name` (it takes the rest from the scenario on screen) and reads what the user view
 * shows and downloads. Each name is a scenario of its own, so the load switches to it and compiles it: the
 * load's message and the compilation's start come together, and the result read is the new one.
 */
async function userViewOf(app: AppPage, page: Page, name: string, records: string) {
  const previous = await app.scenarioPicker.inputValue();
  await app.dropFiles([{ name, mimeType: 'application/x-ndjson', text: records }]);
  await expect(app.loadResult).toContainText(`Loaded ${name} (records)`);
  await expect(app.scenarioPicker).not.toHaveValue(previous);
  await app.waitForCompiled();
  await expect(app.auditOutcome).toHaveText('Packet emitted');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download user view' }).click(),
  ]);
  return {
    header: await headerText(page),
    audit: await page.getByTestId('audit-strip').textContent(),
    packet: await page.getByTestId('packet-text').textContent(),
    compiled: await app.column('compiled').textContent(),
    trace: await app.readTrace(),
    withheld: await page.getByTestId('withheld-notice').textContent(),
    downloadName: download.suggestedFilename(),
    download: readFileSync(await download.path(), 'utf8'),
  };
}

test.describe('The user view is a view of its own', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('on retry-policy, a new title for the withheld LGL-0007 leaves the screen text and the user-view download byte-identical', async ({
    app,
    page,
  }) => {
    await app.goto();
    await page.getByRole('radio', { name: 'User view' }).check();
    await app.waitForCompiled();
    const before = await userViewOf(app, page, 'records-before.jsonl', RECORDS);
    const beforeKey = await app.scenarioPicker.inputValue();
    const after = await userViewOf(app, page, 'records-after.jsonl', RETITLED);
    expect(after).toEqual(before);

    // The user view names itself by its own id, never by the receipt.
    const document = JSON.parse(before.download) as { userViewId: string; withheldCount: number };
    expect(document.withheldCount).toBe(2);
    expect(before.downloadName).toBe(`user-view-${document.userViewId.slice(0, 12)}.json`);
    await expect(page.getByTestId('audit-receipt')).toHaveCount(0);
    await expect(page.getByTestId('audit-user-view')).toHaveText(document.userViewId.slice(0, 12));
    await expect(page.getByTestId('audit-user-view')).toHaveAttribute('title', document.userViewId);
    expect(before.packet).toContain(`user view: ${document.userViewId}`);
    expect(before.packet).not.toMatch(/^(receipt|record set):/m);
    for (const text of [
      before.header,
      before.audit,
      before.packet,
      before.compiled,
      before.download,
      JSON.stringify(before.trace),
    ])
      expect(text).not.toMatch(/LGL-0007|SEC-0042/);

    // The diagnostic view shows the receipt again, and it tells the two record sets apart.
    await page.getByRole('radio', { name: 'Diagnostic view' }).check();
    await app.waitForCompiled();
    await expect(page.getByTestId('audit-user-view')).toHaveCount(0);
    const retitledReceipt = await app.receiptId();
    await app.scenarioPicker.selectOption(beforeKey);
    await app.waitForCompiled();
    expect(await app.receiptId()).not.toBe(retitledReceipt);
  });
});
