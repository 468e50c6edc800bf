import { expect, test, type AppPage } from './fixtures';
import { largeWorkspace, workerMeasureCount } from './large-workspace';

/** Above the size from which the worker builds the whole-corpus index in the background (BACKGROUND_CORPUS_FROM). */
const SIZE = 20_000;

/**
 * Clicks "Cancel loading" from inside the page the moment the progress names `phase`, so the click lands in that phase.
 */
async function cancelWhen(app: AppPage, phase: 'Reading' | 'Indexing'): Promise<void> {
  await app.page.evaluate((word) => {
    const observer = new MutationObserver(() => {
      const progress = document.querySelector('[data-testid="load-progress"]');
      if (!progress?.textContent?.startsWith(word)) return;
      const button = [...progress.querySelectorAll('button')].find(
        (candidate) => candidate.textContent === 'Cancel loading',
      );
      if (!button) return;
      observer.disconnect();
      button.click();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, phase);
}

test.describe('A large workspace', () => {
  test.setTimeout(240_000);

  test('shows the compiled packet while the baselines are still indexing, answers a toggle meanwhile, then fills the baselines in', async ({
    app,
    page,
  }) => {
    const { files, control } = largeWorkspace(SIZE, 'e2e-large');
    await app.goto();
    const indexingSeen = page.waitForFunction(
      () =>
        document.querySelector('[data-testid="baseline-indexing-naive"]') !== null &&
        document.querySelector('[data-testid="column-compiled"] li') !== null,
      null,
      { polling: 'raf', timeout: 180_000 },
    );
    await app.openFiles(files);
    await indexingSeen;
    // The file is large enough to be read in pieces from both ends at once, the back ones by a helper worker.
    expect(await workerMeasureCount(app, 'cc:read-in-helper')).toBe(1);
    await expect(page.getByTestId('baseline-indexing-post-filter')).toContainText(
      /Indexing every record for this baseline: [\d,]+ of 20,000/,
    );
    const before = await app.receiptId();
    await page.getByRole('switch', { name: control }).click();
    await expect.poll(() => app.receiptId(), { timeout: 60_000 }).not.toBe(before);
    // The evidence attempts of a large record set follow the result: they are filled in, not left pending.
    await expect(page.getByTestId('attempts-waiver_granted')).toContainText(/Records that tried \([\d,]+\)/);
    await expect(page.getByTestId('attempts-pending')).toHaveCount(0);
    await expect(page.getByTestId('column-naive').getByRole('listitem').first()).toBeVisible({ timeout: 120_000 });
    await expect(page.getByTestId('baseline-indexing-naive')).toHaveCount(0);
    await expect(page.getByTestId('illegal-count-post-filter')).toHaveText('✓ 0 illegal records let in');
  });

  test('Cancel while reading and while indexing leaves the previous workspace, its receipt and storage as they were', async ({
    app,
    page,
  }) => {
    const { files } = largeWorkspace(SIZE, 'e2e-cancel');
    await app.goto();
    const receipt = await app.receiptId();
    const loadedOption = app.scenarioPicker.locator('option[value="loaded:e2e-cancel"]');

    for (const phase of ['Reading', 'Indexing'] as const) {
      const indexedBefore = await workerMeasureCount(app, 'cc:index');
      await cancelWhen(app, phase);
      await app.openFiles(files);
      await expect(page.getByTestId('load-cancelled')).toContainText('Cancelled: nothing was loaded or saved');
      // Cancelled while reading: the worker never started indexing; while indexing: it stopped there.
      expect(await workerMeasureCount(app, 'cc:index')).toBe(phase === 'Reading' ? indexedBefore : indexedBefore + 1);
      await expect(loadedOption).toHaveCount(0);
      expect(await app.receiptId()).toBe(receipt);
      await page.getByRole('button', { name: 'Dismiss' }).click();
    }

    await page.reload();
    await app.waitForCompiled();
    await expect(loadedOption).toHaveCount(0);
    expect(await app.receiptId()).toBe(receipt);
  });
});
