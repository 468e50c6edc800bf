import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { AppPage, expect, fixtureFile, test } from './fixtures';

/** What a link's fragment inflates to: the JSON the worker compressed. */
function payloadOf(link: string): string {
  const data = new URL(link).hash.replace(/^#share=1\./, '');
  return inflateRawSync(Buffer.from(data, 'base64url')).toString('utf8');
}

/** What the screen shows: the view, the tab, the packet compiled now, the pin and the drill. */
async function screenOf(app: AppPage, page: Page) {
  const drill = app.drill;
  return {
    // The view switch sits in the debugger's trace rail, hidden on the Fire drill tab: read as the DOM holds it.
    view: (await page.locator('label:has(input[name="audience"]:checked)').textContent())?.trim(),
    tab: await page.getByRole('navigation', { name: 'Workspace' }).getByRole('button', { pressed: true }).textContent(),
    compiledNow: await page
      .getByTestId('drill-current')
      .locator('li.entry')
      .evaluateAll((entries) => entries.map((entry) => entry.getAttribute('data-testid'))),
    pin: await page.getByTestId('baseline-pin').textContent(),
    frozen: await drill.getByTestId('drill-frozen').textContent(),
    declared: await drill.getByTestId('drill-declared').textContent(),
    verdict: await app.drillVerdict(),
  };
}

test.describe('Share links', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('a link carries loaded files, an edit and the toggles to a fresh browser, which compiles the same receipts', async ({
    app,
    page,
    browser,
  }) => {
    await app.goto();
    await app.dropFiles([fixtureFile('gateway-files.scenario.json'), fixtureFile('gateway-files.records.jsonl')]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-files');
    const loadedReceipt = await app.receiptId();
    await app.scenarioPicker.selectOption('retry-policy');
    await page.getByRole('textbox', { name: 'Query' }).fill('retry backoff timeouts failover');
    await page.getByRole('button', { name: 'Apply contract' }).click();
    await expect(page.getByRole('heading', { name: 'Contract (edited)' })).toBeVisible();
    await app.control('Highly similar future reveal').check();
    await app.control('Generated draft').check();
    await expect(page.getByTestId('scenario-records')).toHaveText('15 records (13 in the scenario)');
    const sent = await app.receiptId();

    await page.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this workspace' });
    await dialog.getByRole('button', { name: 'Copy share link' }).click();
    await expect(dialog.getByTestId('share-status')).toContainText(
      `with the selected scenario and its toggles, 1 edited contract and 2 loaded files. Opening it compiles to receipt ${sent.slice(0, 12)}.`,
    );
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/some-repo\/#share=1\.[A-Za-z0-9_-]+$/);
    await expect(dialog.getByTestId('share-link')).toHaveValue(link);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Another browser profile: nothing stored, nothing loaded, so nothing to ask about.
    const context = await browser.newContext();
    const other = new AppPage(await context.newPage());
    await other.page.goto(link);
    await other.waitForCompiled();
    await expect(other.page.getByTestId('share-opened')).toContainText('Opened a shared workspace: Payments platform');
    await expect(other.page.getByTestId('share-opened')).toContainText('2 controls or late changes on');
    await expect(other.scenarioPicker).toHaveValue('retry-policy');
    await expect(other.control('Highly similar future reveal')).toBeChecked();
    expect(await other.receiptId()).toBe(sent);
    // The fragment is gone from the address bar, so a reload keeps the (now saved) workspace and does not ask.
    expect(new URL(other.page.url()).hash).toBe('');
    await other.page.reload();
    await other.waitForCompiled();
    expect(await other.receiptId()).toBe(sent);
    await other.scenarioPicker.selectOption('loaded:gateway-files');
    await expect(other.auditReceipt).toHaveText(loadedReceipt.slice(0, 12));
    await context.close();
  });

  test('a link carries the screen (view, tab, pinned baseline, drill and verdict) and, from the user view, no withheld record', async ({
    app,
    page,
    browser,
  }) => {
    await app.goto();
    await app.setDisclosure('User view');
    await page.getByRole('button', { name: 'Pin as baseline' }).click();
    await expect(page.getByTestId('baseline-pin')).toContainText('Pinned: Payments platform');
    await app.setControl('Rejected writer-only plan', true);
    const packet = await app.packetIds('compiled');
    const verdict = await app.runDrill();
    expect(verdict.action).toBe('recompile_required');
    const sent = await screenOf(app, page);
    expect(sent.compiledNow.length).toBeGreaterThan(0);
    expect(sent).toMatchObject({
      view: 'User view',
      tab: 'Fire drill',
      declared: expect.stringContaining('Late correction: RUN-0880 is required'),
    });

    await page.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this workspace' });
    await dialog.getByRole('button', { name: 'Copy share link' }).click();
    await expect(dialog.getByTestId('share-status')).toContainText(
      'It opens on the user view, Fire drill tab, Compare rail, with a pinned baseline and a frozen receipt and its verdict.',
    );
    const link = await dialog.getByTestId('share-link').inputValue();
    await dialog.getByRole('button', { name: 'Close' }).click();

    // SEC-0042 fails authorisation and LGL-0007 carries a denied label: the user view names neither, nor may its link.
    const payload = payloadOf(link);
    expect(payload).toContain('"audience":"user"');
    const records = readFileSync(new URL('../fixtures/retry-policy/records.jsonl', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; title: string; text: string });
    const withheld = records.filter((record) => ['SEC-0042', 'LGL-0007'].includes(record.id));
    expect(withheld).toHaveLength(2);
    for (const record of withheld)
      for (const content of [record.id, record.title, record.text]) expect(payload).not.toContain(content);

    const context = await browser.newContext();
    const other = new AppPage(await context.newPage());
    await other.page.goto(link);
    await other.waitForCompiled();
    await expect(other.page.getByTestId('share-opened')).toContainText(
      'On the user view, Fire drill tab, Compare rail, with a pinned baseline and a frozen receipt and its verdict.',
    );
    await expect(other.drill.getByTestId('drill-verdict')).toBeVisible();
    expect(await screenOf(other, other.page)).toEqual(sent);
    await other.openWorkspace('Debugger');
    expect(await other.packetIds('compiled')).toEqual(packet);
    await context.close();
  });

  test('a link made in the user view carries no loaded files, and says so', async ({ app, page }) => {
    await app.goto();
    await app.dropFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await app.setDisclosure('User view');
    await page.getByRole('button', { name: 'Share…' }).click();
    await page.getByRole('button', { name: 'Copy share link' }).click();
    await expect(page.getByTestId('share-status')).toHaveText(
      /^No link was made: a link made in the user view carries no loaded files, open suites or record edits, since they can hold records that view withholds\./,
    );
    await expect(page.getByTestId('share-link')).toHaveCount(0);
  });

  test('a blank-session link asks before replacing loaded work, then starts from the built-ins', async ({
    app,
    page,
  }) => {
    await app.goto();
    const builtin = await app.receiptId();
    await page.getByRole('button', { name: 'Share…' }).click();
    await page.getByRole('button', { name: 'Copy blank-session link' }).click();
    const blank = await page.evaluate(() => navigator.clipboard.readText());
    expect(blank).toMatch(/\/some-repo\/#blank$/);
    await page.getByRole('button', { name: 'Close' }).click();

    await app.dropFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await page.goto(blank);
    await app.waitForCompiled();
    const ask = page.getByRole('alertdialog', { name: 'Start a blank session?' });
    await expect(ask).toContainText('1 loaded scenario');
    await ask.getByRole('button', { name: 'Start blank session' }).click();
    await expect(page.getByTestId('share-opened')).toContainText('Started a blank session');
    await expect(app.scenarioPicker).toHaveValue('retry-policy');
    await expect(app.scenarioPicker.locator('option', { hasText: '(loaded)' })).toHaveCount(0);
    expect(await app.receiptId()).toBe(builtin);
  });

  test('a link over the size limit, or a damaged one, is refused with a clear message and changes nothing', async ({
    app,
    page,
  }) => {
    await app.goto();
    await page.getByRole('textbox', { name: 'Token budget' }).fill('80');
    await page.getByRole('button', { name: 'Apply contract' }).click();
    await expect(app.auditBudget).toHaveText('74 / 80 tokens');
    const before = await app.receiptId();

    await page.goto(`./#share=1.${'A'.repeat(200_001)}`);
    await app.waitForCompiled();
    await expect(page.getByTestId('share-refused')).toContainText(
      'The share link was not opened: nothing in this workspace has changed.',
    );
    await expect(page.getByTestId('share-refused')).toContainText('share links are limited to 200,000');
    expect(await app.receiptId()).toBe(before);

    await page.goto('./#share=1.bm90LWRlZmxhdGU');
    await expect(page.getByTestId('share-refused')).toContainText('share link: (root): the link is damaged');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    expect(await app.receiptId()).toBe(before);
  });

  test('a workspace whose loaded files exceed the stated size gets no link, and is told what to do instead', async ({
    app,
    page,
  }) => {
    await app.goto();
    const record = JSON.parse(fixtureFile('gateway-files.records.jsonl').text.split('\n')[0] ?? '{}') as Record<
      string,
      unknown
    >;
    const lines = Array.from({ length: 1_200 }, (_, index) =>
      JSON.stringify({
        ...record,
        id: `BIG-${index}`,
        provenance: null,
        text: `Padding record ${index}. ${'lorem ipsum '.repeat(20)}`,
      }),
    );
    await app.dropFiles([{ name: 'big.jsonl', mimeType: 'application/jsonl', text: lines.join('\n') }]);
    await expect(app.loadResult).toContainText('big.jsonl (records)');
    await page.getByRole('button', { name: 'Share…' }).click();
    await page.getByRole('button', { name: 'Copy share link' }).click();
    await expect(page.getByTestId('share-status')).toHaveText(
      /^No link was made: the loaded files are [\d,]+ KB; a share link carries at most 256 KB of files\. Use "Export scenario" and send the file instead\.$/,
    );
    await expect(page.getByTestId('share-link')).toHaveCount(0);
  });
});
