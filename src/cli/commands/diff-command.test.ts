import { sha256InNode } from '../../lib/node-sha256';
import { readFileSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { receiptIdOf } from '../../core/phases/7-attest/attest';

import type { Receipt } from '../../core/result';
import { EXIT } from '../command';
import { main } from '../main';
import { runMain } from '../test-support/run-main';

const run = (...args: string[]) => runMain(args);

describe('context-compiler diff', () => {
  it('diffs two compilations: atlas-credit-review decided one day later', async () => {
    const first = await run('compile', '--scenario', 'atlas-credit-review', '--receipt-out', 'a.json');
    await main(
      ['compile', '--scenario', 'atlas-credit-review', '--control', 'decide-one-day-later', '--receipt-out', 'b.json'],
      { stdout: () => {}, stderr: () => {}, cwd: first.cwd },
    );
    let stdout = '';
    const io = { stdout: (text: string) => (stdout += text), stderr: () => {}, cwd: first.cwd };
    expect(await main(['diff', 'a.json', 'b.json'], io)).toBe(EXIT.ok);
    expect(stdout).toContain('asOf 2026-08-30T00:00:00.000Z → 2026-08-31T00:00:00.000Z');
    expect(stdout).toContain('ADD-7 SELECTED_EVIDENCE → EXCLUDE_EXPIRED');
    expect(stdout).toMatch(/in: P4-LOCAL\n\s+out: ADD-7/);
    stdout = '';
    expect(await main(['diff', 'a.json', 'b.json', '--json'], io)).toBe(EXIT.ok);
    const diff = JSON.parse(stdout) as {
      identical: boolean;
      contract: { field: string }[];
      packet: { tokensBefore: number; tokensAfter: number };
    };
    expect(diff.identical).toBe(false);
    expect(diff.contract.map((change) => change.field)).toEqual(['asOf']);
    expect(diff.packet).toMatchObject({ tokensBefore: 670, tokensAfter: 730 });
    stdout = '';
    expect(await main(['diff', 'a.json', 'a.json'], io)).toBe(EXIT.ok);
    expect(stdout).toContain('identical');
  });

  it('refuses diff input that is not two receipts, naming the file and field', async () => {
    const saved = await run('compile', '--receipt-out', 'a.json');
    writeFileSync(
      join(saved.cwd, 'bad.json'),
      JSON.stringify({ ...JSON.parse(readFileSync(join(saved.cwd, 'a.json'), 'utf8')), tokensUsed: 'many' }),
    );
    let stderr = '';
    const io = { stdout: () => {}, stderr: (text: string) => (stderr += text), cwd: saved.cwd };
    expect(await main(['diff', 'a.json'], io)).toBe(EXIT.invalid);
    expect(await main(['diff', 'a.json', 'missing.json'], io)).toBe(EXIT.invalid);
    expect(stderr).toContain('missing.json: no such file');
    expect(await main(['diff', 'a.json', 'bad.json'], io)).toBe(EXIT.invalid);
    expect(stderr).toMatch(/bad\.json:1: tokensUsed: /);
  });

  it('checks each receipt before diff compares it: an id that does not verify is RECEIPT_INVALID (exit 2), naming the file', async () => {
    const saved = await run('compile', '--receipt-out', 'honest.json');
    const honest = JSON.parse(readFileSync(join(saved.cwd, 'honest.json'), 'utf8')) as Receipt;
    // Edited, its id not computed again.
    writeFileSync(join(saved.cwd, 'edited.json'), JSON.stringify({ ...honest, tokensUsed: honest.tokensUsed + 1 }));
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (text: string) => (stdout += text),
      stderr: (text: string) => (stderr += text),
      cwd: saved.cwd,
    };
    expect(await main(['diff', 'honest.json', 'edited.json'], io)).toBe(EXIT.failClosed);
    expect(stdout).toBe('');
    expect(stderr).toContain('RECEIPT_INVALID: edited.json: The receipt does not hash to its own id');
    expect(stderr).toContain('edited.json: receiptId: does not hash the receipt');
    stderr = '';
    expect(await main(['diff', 'edited.json', 'honest.json'], io)).toBe(EXIT.failClosed);
    expect(stderr).toContain('RECEIPT_INVALID: edited.json:');
    expect(await main(['diff', 'honest.json', 'honest.json'], io)).toBe(EXIT.ok);
  });

  it('refuses a receipt of another schema or engine version as STALE_ENGINE_VERSION (exit 3) in diff and drill, naming the file', async () => {
    const saved = await run('compile', '--receipt-out', 'honest.json');
    const { receiptId, ...body } = JSON.parse(readFileSync(join(saved.cwd, 'honest.json'), 'utf8')) as Receipt;
    writeFileSync(
      join(saved.cwd, 'v2.json'),
      JSON.stringify({ receiptId, ...body, schemaVersion: 'context-compiler/2' }),
    );
    const older = { ...body, engineVersion: '0.1.0' };
    writeFileSync(
      join(saved.cwd, 'older-engine.json'),
      JSON.stringify({ receiptId: receiptIdOf(sha256InNode, older), ...older }),
    );
    for (const [file, found] of [
      ['v2.json', 'Receipt 0.2.0 (context-compiler/2)'],
      ['older-engine.json', 'Receipt 0.1.0 (context-compiler/5)'],
    ] as const) {
      let stderr = '';
      const io = { stdout: () => {}, stderr: (text: string) => (stderr += text), cwd: saved.cwd };
      expect(await main(['diff', 'honest.json', file], io), file).toBe(EXIT.recompileRequired);
      expect(stderr).toContain(
        `error [validate] STALE_ENGINE_VERSION: ${file}: The receipt was made by another schema or engine version: recompile. ${found}`,
      );
    }
    let stderr = '';
    expect(
      await main(['drill', '--receipt', 'v2.json'], {
        stdout: () => {},
        stderr: (text) => (stderr += text),
        cwd: saved.cwd,
      }),
    ).toBe(EXIT.recompileRequired);
    expect(stderr).toContain('STALE_ENGINE_VERSION: v2.json:');
    expect(stderr).toContain('v2.json:1: schemaVersion: a "context-compiler/2" receipt');
  });
});
