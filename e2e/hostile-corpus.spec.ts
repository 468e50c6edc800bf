import { readFileSync } from 'node:fs';
import { HOSTILE_DIR, readManifest, type HostileCase } from '../scripts/hostile-corpus/manifest';
import { expect, test, type AppPage } from './fixtures';

/**
 * A sample of fixtures/hostile/ through the built app's file input, raw bytes as a user's disk has them:
 * the outcome the manifest expects, the location named on screen, and after each file the base scenario
 * still selectable with the receipt it had (nothing lost, nothing stale). The whole corpus runs in Node
 * through the worker session (src/worker/hostile-corpus.test.ts).
 */
const manifest = readManifest();
const SAMPLE = [
  'records-dup-key-tokens.jsonl',
  'records-truncated-only.jsonl',
  'records-bom.jsonl',
  'records-id-escape.jsonl',
  'records-line-5001.jsonl',
  'records-not-json-at-all.jsonl',
  'contract-missing-task.json',
  'contract-dup-key-budget.json',
  'contract-required-missing.json',
  'scenario-dup-control-ids.json',
  'scenario-proto-top.json',
  'scenario-sibling-bad.json',
  'scenario-label-escapes.json',
  'receipt-valid.json',
  'receipt-bom.json',
  'receipt-dup-key-outcome.json',
];
const BASE_KEY = 'loaded:hostile-base';
const payload = (name: string) => ({
  name,
  mimeType: name.endsWith('.jsonl') ? 'application/jsonl' : 'application/json',
  buffer: readFileSync(`${HOSTILE_DIR}${name}`),
});
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function pick(app: AppPage, names: readonly string[]): Promise<void> {
  await expect(app.page.getByRole('button', { name: 'Open files…' })).toBeEnabled();
  await app.page.getByTestId('file-input').setInputFiles(names.map(payload));
}

async function backToBase(app: AppPage, receipt: string): Promise<void> {
  await app.scenarioPicker.selectOption(BASE_KEY);
  await expect(app.scenarioPicker).toHaveValue(BASE_KEY);
  await expect.poll(() => app.receiptId()).toBe(receipt);
  await expect(app.auditOutcome).toHaveText('Packet emitted');
}

async function check(app: AppPage, entry: HostileCase, baseReceipt: string): Promise<void> {
  const wanted = { ...entry.expect, ...entry.app };
  await pick(app, [entry.file, ...entry.with]);
  const refusedAtLoad = wanted.exit === 1 && wanted.at !== undefined;
  if (refusedAtLoad) {
    await expect(app.loadErrors).toContainText('nothing that was loaded before has changed');
    const refusedFile = wanted.at?.file ?? entry.file;
    await expect(
      app.page.getByTestId('load-file-summary').filter({ hasText: new RegExp(`^${escapeRegExp(refusedFile)}: `) }),
    ).toHaveCount(1);
    const at = wanted.at;
    if (at) {
      const where = new RegExp(
        `^${escapeRegExp(at.file)}${at.line === undefined ? '(:\\d+)?' : `:${at.line}`}: ${escapeRegExp(at.path)}: `,
      );
      await expect(app.loadErrors.getByTestId('load-issue').filter({ hasText: where }).first()).toBeVisible();
    }
    if (wanted.message) await expect(app.loadErrors).toContainText(wanted.message);
    // Still the base, and the same receipt: nothing lost, nothing stale on screen.
    await expect(app.scenarioPicker).toHaveValue(BASE_KEY);
    expect(await app.receiptId()).toBe(baseReceipt);
    return;
  }
  await expect(app.loadResult).toContainText(entry.file);
  if (entry.kind === 'receipt') {
    await expect(app.page.getByTestId('receipt-check')).toContainText(wanted.code ?? '');
  } else if (wanted.code === 'EXCLUDE_UNREADABLE') {
    // Loaded, with the lines that are not records listed where the diagnostic view shows them.
    const at = wanted.at;
    if (at)
      await expect(
        app.page
          .getByTestId('unreadable-records')
          .getByRole('listitem')
          .filter({
            hasText: new RegExp(
              `^${escapeRegExp(at.file)}${at.line === undefined ? '(:\\d+)?' : `:${at.line}`}: ${escapeRegExp(at.path)}: `,
            ),
          })
          .first(),
      ).toBeVisible();
    if (wanted.exit === 2) await expect(app.copyPacketButton).toHaveCount(0);
    else await expect(app.auditOutcome).toHaveText('Packet emitted');
  } else if (wanted.exit === 2) {
    await expect(app.page.getByTestId('fail-closed-code')).toHaveText(wanted.code ?? '');
    await expect(app.copyPacketButton).toHaveCount(0);
  } else {
    await expect(app.auditOutcome).toHaveText('Packet emitted');
  }
  await backToBase(app, baseReceipt);
}

test.describe('Hostile corpus sample through the file input', () => {
  test(`${SAMPLE.length} hostile files: the expected outcome and location, and nothing lost`, async ({ app }) => {
    test.setTimeout(240_000);
    await app.goto();
    await pick(app, [manifest.base.scenario]);
    await expect(app.scenarioPicker).toHaveValue(BASE_KEY);
    await expect(app.auditOutcome).toHaveText('Packet emitted');
    const baseReceipt = await app.receiptId();
    for (const name of SAMPLE) {
      const entry = manifest.cases.find((candidate) => candidate.file === name);
      if (!entry) throw new Error(`${name} is not in the manifest`);
      await test.step(`${name}: ${entry.about}`, () => check(app, entry, baseReceipt));
    }
  });
});
