import { AppPage, expect, test } from './fixtures';
import { compilerWorker } from './compiler-worker';
import { largeWorkspace, workerMeasureCount } from './large-workspace';

const SIZE = 10_000;

/** The receipt ids the page showed from the last session before its first compilation (cc:remembered-shown). */
function rememberedShown(app: AppPage): Promise<unknown[]> {
  return app.page.evaluate(() =>
    performance.getEntriesByName('cc:remembered-shown').map((mark) => (mark as PerformanceMark).detail as unknown),
  );
}

/** The SyncReport the worker marked when it looked for the restored records' rows (cc:restore-index). */
async function restoreIndexReport(app: AppPage): Promise<unknown> {
  const worker = await compilerWorker(app.page);
  return worker.evaluate(
    () => (performance.getEntriesByName('cc:restore-index')[0] as PerformanceMark | undefined)?.detail ?? null,
  );
}

test.describe('The workspace database', () => {
  test.setTimeout(240_000);

  test('a 10,000-record workspace comes back after a reload from the database, without reading or indexing, to the same receipt, shown from the last session until it is compiled again; a second tab gets a working copy and a notice; Reset clears it', async ({
    app,
    page,
    context,
  }) => {
    const { files } = largeWorkspace(SIZE, 'e2e-reload');
    await app.goto();
    const builtin = await app.receiptId();
    // The built-in scenario's result is remembered too: wait for it, so that the next remember is the loaded one's.
    await expect.poll(() => workerMeasureCount(app, 'cc:remember'), { timeout: 30_000 }).toBe(1);
    await app.openFiles(files);
    // Reading, indexing and saving 10,000 records take a while on a loaded machine.
    await expect(app.scenarioPicker).toHaveValue('loaded:e2e-reload', { timeout: 120_000 });
    await expect.poll(() => app.receiptId(), { timeout: 120_000 }).not.toBe(builtin);
    await expect(page.getByTestId('column-naive').getByRole('listitem').first()).toBeVisible({ timeout: 120_000 });
    const receipt = await app.receiptId();
    // The records are kept in the database in the background, after the packet, and the result shown is remembered:
    // wait for both before reloading.
    await expect.poll(() => workerMeasureCount(app, 'cc:store-records'), { timeout: 120_000 }).toBe(1);
    await expect.poll(() => workerMeasureCount(app, 'cc:remember'), { timeout: 30_000 }).toBeGreaterThan(1);
    expect(await rememberedShown(app)).toEqual([]);

    await page.reload();
    await app.waitForCompiled();
    await expect(app.scenarioPicker).toHaveValue('loaded:e2e-reload');
    expect(await app.receiptId()).toBe(receipt);
    // The last session's result was on screen before the compilation, which gave the same receipt (no notice).
    expect(await rememberedShown(app)).toEqual([receipt]);
    await expect(page.getByTestId('audit-outcome')).toHaveText('Packet emitted');
    await expect(page.getByTestId('export-status')).not.toContainText('last session');
    await expect(page.getByTestId('scenario-records')).toHaveText('10,000 records');
    // Worker-side markers, not timing: no records file was read, no drop indexed, and no row written.
    expect(await workerMeasureCount(app, 'cc:read-records')).toBe(0);
    expect(await workerMeasureCount(app, 'cc:index')).toBe(0);
    expect(await workerMeasureCount(app, 'cc:restore-records')).toBe(1);
    expect(await restoreIndexReport(app)).toEqual({ inserted: 0, updated: 0, deleted: 0 });
    await expect(page.getByTestId('storage-notice')).toHaveCount(0);
    await expect(page.getByTestId('column-naive').getByRole('listitem').first()).toBeVisible();

    const second = new AppPage(await context.newPage());
    // The copy reads, parses and indexes the 10,000 records from the saved files before it compiles.
    await second.goto('', 120_000);
    await expect(second.page.getByTestId('database-fallback')).toContainText('This workspace is open in another tab');
    await expect(second.scenarioPicker).toHaveValue('loaded:e2e-reload');
    expect(await second.receiptId()).toBe(receipt);
    // The copy read the saved files again: it works, only slower.
    expect(await workerMeasureCount(second, 'cc:read-records')).toBe(1);
    await second.page.close();

    await app.resetWorkspace();
    await expect(app.scenarioPicker).toHaveValue('retry-policy');
    await page.reload();
    await app.waitForCompiled();
    await expect(app.scenarioPicker.locator('option[value="loaded:e2e-reload"]')).toHaveCount(0);
    expect(await rememberedShown(app)).toEqual([]);
  });

  test('without OPFS in the worker the app falls back to IndexedDB, says why it is slower, and still restores the workspace', async ({
    app,
    page,
  }) => {
    // An older browser: the worker has no sync access handles, so the pool cannot be installed.
    await page.route(/compiler\.worker-[^/]*\.js$/, async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        body: `delete globalThis.FileSystemSyncAccessHandle;\n${await response.text()}`,
      });
    });
    const { files } = largeWorkspace(2_000, 'e2e-fallback');
    await app.goto();
    await expect(page.getByTestId('database-fallback')).toContainText(
      'This browser cannot keep the workspace database on disk',
    );
    await expect(page.getByTestId('database-fallback')).toContainText('which is slower');
    const builtin = await app.receiptId();
    await app.openFiles(files);
    await expect(app.scenarioPicker).toHaveValue('loaded:e2e-fallback', { timeout: 120_000 });
    await expect.poll(() => app.receiptId(), { timeout: 120_000 }).not.toBe(builtin);
    const receipt = await app.receiptId();
    await page.reload();
    await app.waitForCompiled();
    await expect(app.scenarioPicker).toHaveValue('loaded:e2e-fallback');
    expect(await app.receiptId()).toBe(receipt);
    expect(await workerMeasureCount(app, 'cc:read-records')).toBe(1);
    await app.resetWorkspace();
  });
});
