import type { Page } from '@playwright/test';
import { compilerWorker } from './compiler-worker';
import { expect, fixtureFile, test, type AppPage } from './fixtures';

/** Everything a result would leave on screen; after a failure none of it may be there. */
async function expectNothingCopyable(app: AppPage): Promise<void> {
  const { page } = app;
  await expect(app.auditOutcome).toHaveCount(0);
  await expect(app.auditReceipt).toHaveCount(0);
  await expect(app.copyPacketButton).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download packet' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download diagnostic receipt' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download user view' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download statement' })).toHaveCount(0);
  await expect(app.column('compiled')).toHaveCount(0);
  await expect(page.getByTestId('packet-text')).toHaveCount(0);
}

/** Edits the contract through the raw JSON editor. */
async function applyContractJson(page: Page, edit: (contract: Record<string, unknown>) => void): Promise<void> {
  await page.getByRole('button', { name: 'Raw JSON' }).click();
  const box = page.getByRole('textbox', { name: 'Contract JSON' });
  const contract = JSON.parse(await box.inputValue()) as Record<string, unknown>;
  edit(contract);
  await box.fill(JSON.stringify(contract));
  await page.getByRole('button', { name: 'Apply JSON' }).click();
}

test.describe('Faults end in a clear, fail-closed state with a way back', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('a compilation that throws in the worker leaves no packet, receipt or copy button; undoing the edit recompiles', async ({
    app,
    page,
  }) => {
    await app.goto();
    const receipt = await app.receiptId();
    // The fault: the worker's compile step throws, as a stack overflow in a pass would.
    await (
      await compilerWorker(page)
    ).evaluate(() => {
      const measure = performance.measure.bind(performance);
      performance.measure = (name: string, options?: PerformanceMeasureOptions) => {
        if (name === 'cc:compile') throw new RangeError('Maximum call stack size exceeded');
        return measure(name, options);
      };
    });
    await applyContractJson(page, (contract) => {
      contract.scopes = [...(contract.scopes as string[]), 'one-more-scope'];
    });

    const failure = page.getByTestId('compiler-failure');
    await expect(failure).toContainText('NOT COMPILED — the compiler failed while compiling');
    await expect(page.getByTestId('compiler-failure-reason')).toHaveText(
      'It ran out of stack space (Maximum call stack size exceeded), which usually means an input list is longer than it can handle.',
    );
    await expect(page.getByTestId('audit-strip')).toContainText('Not compiled: the compiler failed');
    await expectNothingCopyable(app);

    await (await compilerWorker(page)).evaluate(() => Reflect.deleteProperty(performance, 'measure'));
    await failure.getByRole('button', { name: 'Undo contract edits' }).click();
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await expect(failure).toHaveCount(0);
    expect(await app.receiptId()).toBe(receipt);
  });

  test('a worker that ends is noticed, started again, and the loaded files, selection and contract edit come back', async ({
    app,
    page,
  }) => {
    await app.goto();
    await app.dropFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await applyContractJson(page, (contract) => {
      contract.tokenBudget = 200;
    });
    await expect(app.auditBudget).toHaveText('46 / 200 tokens');
    const receipt = await app.receiptId();

    const first = await compilerWorker(page);
    await first.evaluate(() => self.close());
    await expect(page.getByTestId('worker-restarted')).toContainText(
      'The compiler stopped (it was ended by the browser or crashed) and was started again.',
    );
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await expect(page.getByRole('button', { name: 'Revert contract edits' })).toBeVisible();
    await expect(app.auditBudget).toHaveText('46 / 200 tokens');
    expect(await app.receiptId()).toBe(receipt);
    expect(await compilerWorker(page)).not.toBe(first);

    // The new worker answers: a scenario switch compiles.
    await app.scenarioPicker.selectOption('retry-policy');
    await expect(app.auditBudget).toHaveText('74 / 96 tokens');
  });

  test('a toggle right after the worker ended does not do nothing: the loss is said, and switch and result agree', async ({
    app,
    page,
  }) => {
    await app.goto();
    const receipt = await app.receiptId();
    const toggle = app.control('Remove required provenance');
    await (await compilerWorker(page)).evaluate(() => self.close());
    await toggle.click();
    await expect(page.getByTestId('worker-restarted')).toBeVisible();
    await expect(page.getByTestId('fatal-error')).toHaveCount(0);
    // The click met the dead worker (and was undone with the restore) or the new one (and took effect): either way the
    // screen agrees with itself.
    if (await toggle.isChecked()) {
      await expect(app.failClosed).toContainText('FAIL-CLOSED — REQUIRED_MISSING_PROVENANCE');
      await toggle.click();
    }
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    expect(await app.receiptId()).toBe(receipt);
    await toggle.click();
    await expect(app.failClosed).toContainText('FAIL-CLOSED — REQUIRED_MISSING_PROVENANCE');
  });

  test('a file load cut short by the worker ending stops spinning, says nothing was loaded, and can be done again', async ({
    app,
    page,
  }) => {
    await app.goto();
    // The fault: reading any file never finishes, so the load waits in the worker until the worker ends.
    await (
      await compilerWorker(page)
    ).evaluate(() => {
      Blob.prototype.text = () => new Promise<string>(() => undefined);
    });
    await app.openFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(page.getByTestId('load-progress')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open files…' })).toBeDisabled();
    await (await compilerWorker(page)).evaluate(() => self.close());

    await expect(app.loadErrors.getByTestId('load-issue')).toHaveText(
      'gateway-lite.scenario.json: (root): the compiler failed while reading the files, so none was loaded. The compiler stopped: it was ended by the browser or crashed.',
    );
    await expect(page.getByTestId('load-progress')).toHaveCount(0);
    await expect(page.getByTestId('worker-restarted')).toBeVisible();
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await app.openFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await expect(app.auditSelected).toHaveText('2');
  });

  test('an uncaught error in the worker ends it: the page says so, starts another and compiles again', async ({
    app,
    page,
  }) => {
    await app.goto();
    const receipt = await app.receiptId();
    await (
      await compilerWorker(page)
    ).evaluate(() => {
      setTimeout(() => {
        throw new Error('injected fault');
      }, 0);
    });
    await expect(page.getByTestId('worker-restarted')).toContainText(
      'The compiler stopped (it hit an unexpected error (Uncaught Error: injected fault)) and was started again.',
    );
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    expect(await app.receiptId()).toBe(receipt);
  });
});

/** Runs `patch` in the compiler worker before any of its own code, by prefixing the worker script as served. */
async function patchWorker(page: Page, patch: string): Promise<void> {
  await page.route(/\/compiler\.worker-[^/]*\.js$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${patch}\n${await response.text()}` });
  });
}

test.describe('Storage faults leave a working in-memory workspace and say so', () => {
  // The service worker would answer the worker script itself, out of reach of the patch.
  test.use({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });

  test('IndexedDB that never answers: the page says so within seconds and works in memory', async ({ app, page }) => {
    await patchWorker(page, 'IDBFactory.prototype.open = function () { return {}; };');
    await app.goto();
    await expect(page.getByTestId('storage-notice')).toContainText(
      'Browser storage did not answer within 5 seconds: working in memory only',
    );
    await app.dropFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await expect(app.auditSelected).toHaveText('2');
    await app.scenarioPicker.selectOption('retry-policy');
    await app.control('Remove required provenance').click();
    await expect(app.failClosed).toContainText('REQUIRED_MISSING_PROVENANCE');
  });

  test('IndexedDB refused by the browser: the page says so and works in memory', async ({ app, page }) => {
    await patchWorker(
      page,
      "IDBFactory.prototype.open = function () { throw new DOMException('The operation is insecure.', 'SecurityError'); };",
    );
    await app.goto();
    await expect(page.getByTestId('storage-notice')).toContainText('Browser storage (IndexedDB) is not allowed here');
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    await app.dropFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await expect(app.auditSelected).toHaveText('2');
  });

  test('site data cleared mid-session: the loss is said when it happens, a reload says nothing untrue, and saving again brings the files back', async ({
    app,
    page,
  }) => {
    await app.goto();
    await app.dropFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await expect(page.getByTestId('storage-notice')).toHaveCount(0);

    const clearSiteData = async () => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Storage.clearDataForOrigin', { origin: new URL(page.url()).origin, storageTypes: 'all' });
      await cdp.detach();
    };
    await clearSiteData();
    const notice = page.getByTestId('storage-notice');
    await expect(notice).toContainText('Browser storage was cleared while this page was open.');
    // Still here and working in memory.
    await app.scenarioPicker.selectOption('retry-policy');
    await expect(app.auditBudget).toHaveText('74 / 96 tokens');
    await app.scenarioPicker.selectOption('loaded:gateway-lite');
    await expect(app.auditSelected).toHaveText('2');

    await page.reload();
    await app.waitForCompiled();
    // Nothing was saved after the clear: the files are gone, as the page said, and no notice claims a bad format.
    await expect(app.scenarioPicker).toHaveValue('retry-policy');
    await expect(app.scenarioPicker.locator('option', { hasText: '(loaded)' })).toHaveCount(0);
    await expect(page.getByTestId('storage-notice')).toHaveCount(0);

    await app.dropFiles([fixtureFile('gateway-lite.scenario.json')]);
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await clearSiteData();
    await notice.getByRole('button', { name: 'Save workspace again' }).click();
    // The files are saved again; if the page used its database since the clear, the notice still (truly) says the
    // database on disk was lost.
    await expect(notice.getByRole('button', { name: 'Save workspace again' })).toHaveCount(0);
    await expect(page.getByText('Browser storage was cleared while this page was open.')).toHaveCount(0);
    await page.reload();
    await app.waitForCompiled();
    await expect(app.scenarioPicker).toHaveValue('loaded:gateway-lite');
    await expect(page.getByTestId('storage-notice')).toHaveCount(0);
  });
});

test.describe('SQLite cannot be loaded', () => {
  test.use({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });

  test('a failed wasm request ends in a clear state with nothing compiled, and "Try again" recovers once it loads', async ({
    app,
    page,
  }) => {
    await page.route(/\/sqlite3-[^/]*\.wasm$/, (route) => route.abort('failed'));
    await page.goto('./');
    const fatal = page.getByTestId('fatal-error');
    await expect(fatal).toContainText(
      "The compiler could not start in this browser. SQLite's WebAssembly file could not be loaded (",
    );
    await expect(fatal).not.toContainText('-sASSERTIONS');
    await expect(fatal).toContainText('Nothing can be compiled until it runs');
    await expect(page.getByTestId('compiler-failure')).toHaveCount(0);
    await expectNothingCopyable(app);

    await page.unroute(/\/sqlite3-[^/]*\.wasm$/);
    await fatal.getByRole('button', { name: 'Try again' }).click();
    await app.waitForCompiled();
    await expect(app.auditOutcome).toHaveText('Packet emitted');
  });
});
