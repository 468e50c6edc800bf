import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Download } from '@playwright/test';
import { receiptIdOf } from '../src/core/phases/7-attest/attest';
import type { Receipt } from '../src/core/result';
import { expect, test, type AppPage, type FilePayload } from './fixtures';
import { sha256InNode } from '../src/lib/node-sha256';

/** Clicks an export button and reads the file the page saved. */
async function download(app: AppPage, button: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    app.page.waitForEvent('download'),
    app.page.getByRole('button', { name: button }).click(),
  ]);
  return read(file);
}

async function read(file: Download): Promise<{ name: string; text: string }> {
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

const asJson = (name: string, text: string): FilePayload => ({ name, mimeType: 'application/json', text });

test.describe('Receipts anyone can check', () => {
  test('a receipt from another as-of date is stale, and the check shows the changed fields', async ({ app }) => {
    await app.goto();
    await app.scenarioPicker.selectOption('atlas-credit-review');
    await app.waitForCompiled();
    const today = await app.receiptId();

    // The same scenario decided one day later: compile it, save its receipt, and switch back.
    await app.control('Move the decision by one day').click();
    await expect.poll(() => app.receiptId()).not.toBe(today);
    const tomorrow = await download(app, 'Download diagnostic receipt');
    expect(tomorrow.name).toMatch(/^receipt-diagnostic-[0-9a-f]{12}\.json$/);
    await app.control('Move the decision by one day').click();
    await expect.poll(() => app.receiptId()).toBe(today);

    await app.dropFiles([asJson('tomorrow.json', tomorrow.text)]);
    const check = app.page.getByTestId('receipt-check');
    await expect(check).toContainText('tomorrow.json: STALE — RECOMPILE REQUIRED');
    await expect(check).toContainText('STALE_CONTRACT_FINGERPRINT');
    const diff = check.getByRole('group', {
      name: 'What changed from the receipt to what the current inputs compile to',
    });
    await expect(diff.getByTestId('diff-contract')).toContainText(
      'asOf 2026-08-31T00:00:00.000Z → 2026-08-30T00:00:00.000Z',
    );
    await expect(diff.getByTestId('diff-decisions')).toContainText('ADD-7 EXCLUDE_EXPIRED → SELECTED_EVIDENCE');
    await expect(diff.getByTestId('diff-packet')).toContainText('in: ADD-7');
  });

  test('a forged receipt (an evidence slot edited, its id recomputed) is refused with the first differing field', async ({
    app,
  }) => {
    await app.goto();
    await app.scenarioPicker.selectOption('atlas-credit-review');
    await app.waitForCompiled();
    const saved = JSON.parse((await download(app, 'Download diagnostic receipt')).text) as Receipt;
    const { receiptId: _id, ...body } = saved;
    const edited = {
      ...body,
      evidence: body.evidence.map((slot) =>
        slot.proposition === 'waiver_valid' ? { ...slot, state: 'supported' as const } : slot,
      ),
      decisionBlockedBy: [],
    };

    await app.dropFiles([
      asJson('forged.json', JSON.stringify({ receiptId: receiptIdOf(sha256InNode, edited), ...edited })),
    ]);
    const check = app.page.getByTestId('receipt-check');
    await expect(check).toContainText('forged.json: BLOCKED — DO NOT CONTINUE');
    await expect(check).toContainText('RECEIPT_MISMATCH');
    const diff = check.getByRole('group', { name: 'What the receipt claims, against what its own inputs compile to' });
    await expect(diff.getByTestId('diff-first')).toHaveText('First difference: decisionBlockedBy[0]');
    await expect(diff.getByTestId('diff-evidence')).toContainText('waiver_valid supported → unknown');
  });

  test('the export panel downloads the receipt as an in-toto statement bound to the packet text', async ({ app }) => {
    await app.goto();
    const receiptId = await app.receiptId();
    const file = await download(app, 'Download statement');
    expect(file.name).toBe(`statement-${receiptId.slice(0, 12)}.intoto.json`);
    const statement = JSON.parse(file.text) as {
      _type: string;
      subject: { name: string; digest: Record<string, string> }[];
      predicateType: string;
      predicate: Receipt;
    };
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicateType).toBe(
      `https://context-compiler.invalid/receipt/v${statement.predicate.schemaVersion.split('/')[1]}`,
    );
    expect(statement.predicate.receiptId).toBe(receiptId);
    const packetText = (await app.page.getByTestId('packet-text').textContent()) ?? '';
    expect(statement.subject).toEqual([
      {
        name: 'packet.txt',
        digest: { sha256: createHash('sha256').update(packetText, 'utf8').digest('hex') },
        mediaType: 'text/plain; charset=utf-8',
      },
      { name: 'record-set', digest: { contextCompilerRecordSet: statement.predicate.recordSetDigest } },
    ]);
  });
});
