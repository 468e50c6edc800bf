import { sha256InNode } from '../lib/node-sha256';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { receiptIdOf } from '../core/phases/7-attest/attest';
import { buildContract, buildRecord } from '../core/test-support/builders';
import type { Receipt } from '../core/result';
import { EXIT } from './command';
import { main } from './main';
import { runMain } from './test-support/run-main';

const run = (...args: string[]) => runMain(args);

describe('context-compiler CLI', () => {
  it('prints the commands and exits 1 without a command', async () => {
    const result = await run();
    expect(result.code).toBe(EXIT.invalid);
    expect(result.stdout).toContain('compile');
    expect(result.stdout).toContain('drill');
    expect(result.stdout).toContain('check');
    expect(result.stdout).toContain('diff');
  });

  it('compiles the default scenario: ADR-0234 protected, naive top-k misses it', async () => {
    const result = await run('compile', '--trace');
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toMatch(/PACKET EMITTED/);
    expect(result.stdout).toMatch(/ADR-0234\s+selected\s+SELECTED_REQUIRED/);
    expect(result.stdout).toMatch(/naive top-k\s+5\s+90 \/ 96\s+5\s+ADR-0234/);
  });

  it('fails closed with exit 2 and no packet when required provenance is removed', async () => {
    const result = await run('compile', '--control', 'remove-provenance');
    expect(result.code).toBe(EXIT.failClosed);
    expect(result.stdout).toContain('REQUIRED_MISSING_PROVENANCE');
    expect(result.stdout).not.toContain('=== CONTEXT PACKET ===');
  });

  it('fails closed with exit 2 when the required record cannot fit the budget', async () => {
    const result = await run('compile', '--control', 'tight-budget');
    expect(result.code).toBe(EXIT.failClosed);
    expect(result.stdout).toContain('REQUIRED_OVER_BUDGET');
  });

  it('emits JSON with the receipt and writes the receipt and packet files', async () => {
    const result = await run('compile', '--json', '--receipt-out', 'receipt.json', '--packet-out', 'packet.txt');
    const parsed = JSON.parse(result.stdout) as { status: string; receipt: { receiptId: string } };
    expect(parsed.status).toBe('packet');
    const saved = JSON.parse(readFileSync(join(result.cwd, 'receipt.json'), 'utf8')) as { receiptId: string };
    expect(saved.receiptId).toBe(parsed.receipt.receiptId);
    expect(readFileSync(join(result.cwd, 'packet.txt'), 'utf8')).toContain(`receipt: ${parsed.receipt.receiptId}`);
  });

  it('writes an in-toto statement whose subject digests match the packet file and the receipt', async () => {
    const result = await run(
      'compile',
      '--receipt-out',
      'receipt.json',
      '--packet-out',
      'packet.txt',
      '--statement-out',
      'statement.intoto.json',
    );
    const statement = JSON.parse(readFileSync(join(result.cwd, 'statement.intoto.json'), 'utf8')) as {
      _type: string;
      subject: { name: string; digest: Record<string, string> }[];
      predicateType: string;
      predicate: unknown;
    };
    const receipt = JSON.parse(readFileSync(join(result.cwd, 'receipt.json'), 'utf8')) as { recordSetDigest: string };
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicate).toEqual(receipt);
    // The digest anyone can recompute with sha256sum over the packet file the CLI wrote.
    expect(statement.subject[0]).toMatchObject({
      name: 'packet.txt',
      digest: {
        sha256: createHash('sha256')
          .update(readFileSync(join(result.cwd, 'packet.txt')))
          .digest('hex'),
      },
    });
    expect(statement.subject[1]).toEqual({
      name: 'record-set',
      digest: { contextCompilerRecordSet: receipt.recordSetDigest },
    });
    const failed = await run('compile', '--control', 'remove-provenance', '--statement-out', 'statement.intoto.json');
    expect(failed.code).toBe(EXIT.failClosed);
    expect(
      (JSON.parse(readFileSync(join(failed.cwd, 'statement.intoto.json'), 'utf8')) as { subject: unknown[] }).subject,
    ).toHaveLength(1);
  });

  it('never names a record excluded for authorisation or deny reasons in the user view', async () => {
    const diagnostic = await run('compile', '--scenario', 'retry-policy', '--trace');
    const user = await run('compile', '--scenario', 'retry-policy', '--view', 'user', '--trace');
    expect(diagnostic.stdout).toContain('LGL-0007');
    expect(user.stdout).not.toContain('LGL-0007');
    expect(user.stdout).not.toContain('SEC-0042');
    expect(user.stdout).toMatch(/2 records are outside the authorised scope/);
  });

  it('rejects unknown flags, unknown controls and bad --view values as usage errors', async () => {
    expect((await run('compile', '--colour')).code).toBe(EXIT.invalid);
    expect((await run('compile', '--view', 'admin')).code).toBe(EXIT.invalid);
    const unknown = await run('compile', '--control', 'no-such-control');
    expect(unknown.code).toBe(EXIT.invalid);
    expect(unknown.stderr).toContain('UNKNOWN_CONTROL');
  });

  it('names the file, line and field of a records line that is not a record in the diagnostic view, and only counts it in the user view', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cc-bad-'));
    writeFileSync(
      join(cwd, 'records.jsonl'),
      `${JSON.stringify(buildRecord({ id: 'A' }))}\n{"id":"B","title":"secret title","text":"x","tokens":-1}\n`,
    );
    writeFileSync(join(cwd, 'contract.json'), JSON.stringify(buildContract()));
    const compile = async (view: string) => {
      let stdout = '';
      let stderr = '';
      const code = await main(
        ['compile', '--records', 'records.jsonl', '--contract', 'contract.json', '--view', view],
        {
          stdout: (text) => (stdout += text),
          stderr: (text) => (stderr += text),
          cwd,
        },
      );
      return { code, stdout, stderr };
    };
    const diagnostic = await compile('diagnostic');
    expect(diagnostic.code).toBe(EXIT.ok);
    expect(diagnostic.stderr).toMatch(/^excluded \[validate\] EXCLUDE_UNREADABLE: 1 record\. /);
    expect(diagnostic.stderr).toMatch(/records\.jsonl:2: tokens: /);
    const user = await compile('user');
    expect(user.code).toBe(EXIT.ok);
    expect(user.stderr).toBe('');
    expect(user.stdout).toMatch(/withheld 1 ·/);
    // The packet's own entries carry `tokens:`; the unreadable line's field, file and words appear nowhere.
    expect(user.stdout).not.toMatch(/records\.jsonl|tokens: must|secret|EXCLUDE_UNREADABLE|:2:/);
  });

  it('rehearses the fire drill: stale after the late change, current after recompiling', async () => {
    const result = await run('drill');
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toMatch(/STALE — RECOMPILE REQUIRED \(STALE_CONTRACT_FINGERPRINT\)/);
    expect(result.stdout).toMatch(/CURRENT — MAY CONTINUE \(RECEIPT_CURRENT\)/);
    expect(result.stdout).toMatch(/selected ADR-0234, RUN-0880/);
  });

  it('judges a saved receipt against a declared change with exit 3', async () => {
    const saved = await run('compile', '--receipt-out', 'receipt.json');
    let stdout = '';
    const code = await main(
      ['drill', '--receipt', 'receipt.json', '--scenario', 'retry-policy', '--change', 'promote-run-0880'],
      {
        stdout: (text) => (stdout += text),
        stderr: () => {},
        cwd: saved.cwd,
      },
    );
    expect(code).toBe(EXIT.recompileRequired);
    expect(stdout).toContain('STALE_CONTRACT_FINGERPRINT');
    const unchanged = await main(['drill', '--receipt', 'receipt.json', '--scenario', 'retry-policy'], {
      stdout: () => {},
      stderr: () => {},
      cwd: saved.cwd,
    });
    expect(unchanged).toBe(EXIT.ok);
  });

  it('writes a candidates receipt with --attest candidates, which drill and diff read; another kind is a usage error', async () => {
    const saved = await run('compile', '--attest', 'candidates', '--receipt-out', 'candidates.json');
    expect(saved.code).toBe(EXIT.ok);
    const receipt = JSON.parse(readFileSync(join(saved.cwd, 'candidates.json'), 'utf8')) as Receipt;
    expect(receipt.attestation).toBe('candidates');
    expect(receipt.trace.every((row) => row.gates.length === 0)).toBe(true);
    expect(Object.keys(receipt.omitted?.rows ?? {}).length).toBeGreaterThan(0);
    const io = { stdout: () => {}, stderr: () => {}, cwd: saved.cwd };
    expect(await main(['drill', '--receipt', 'candidates.json', '--scenario', 'retry-policy'], io)).toBe(EXIT.ok);
    expect(await main(['diff', 'candidates.json', 'candidates.json'], io)).toBe(EXIT.ok);
    expect((await run('compile', '--attest', 'rows')).code).toBe(EXIT.invalid);
  });

  it('judges a saved receipt without a scenario only against what it is given, never a built-in one', async () => {
    const saved = await run('compile', '--receipt-out', 'receipt.json');
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (text: string) => (stdout += text),
      stderr: (text: string) => (stderr += text),
      cwd: saved.cwd,
    };
    expect(await main(['drill', '--receipt', 'receipt.json'], io)).toBe(EXIT.invalid);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^NOTHING_TO_JUDGE_AGAINST: receipt\.json: .*--records FILE --contract FILE/);
  });

  it('refuses, not as stale, a withheld record marked selected beside a flipped fingerprint and record-set digest', async () => {
    const saved = await run('compile', '--receipt-out', 'receipt.json');
    const { receiptId: _id, ...body } = JSON.parse(readFileSync(join(saved.cwd, 'receipt.json'), 'utf8')) as Receipt;
    const flip = (hex: string) => `${hex.slice(0, 63)}${hex.endsWith('0') ? '1' : '0'}`;
    const other = body.trace.find((row) => row.id !== 'LGL-0007')?.id;
    const trace = body.trace.map((row) =>
      row.id === 'LGL-0007'
        ? { ...row, decision: 'selected' as const, code: 'SELECTED_RANKED' as const }
        : row.id === other
          ? { ...row, fingerprint: flip(row.fingerprint) }
          : row,
    );
    expect(body.trace.find((row) => row.id === 'LGL-0007')?.decision).toBe('excluded');
    const forged = { ...body, trace, recordSetDigest: flip(body.recordSetDigest) };
    writeFileSync(
      join(saved.cwd, 'forged.json'),
      JSON.stringify({ receiptId: receiptIdOf(sha256InNode, forged), ...forged }),
    );
    let stdout = '';
    const code = await main(['drill', '--scenario', 'retry-policy', '--receipt', 'forged.json'], {
      stdout: (text) => (stdout += text),
      stderr: () => {},
      cwd: saved.cwd,
    });
    expect(stdout.split('\n')[0]).toBe('BLOCKED (RECEIPT_MISMATCH)');
    expect(code).toBe(EXIT.failClosed);
  });

  it('names an unknown option with the nearest one the command has, without advice about positional arguments', async () => {
    const result = await run('drill', '--recrods', 'r.jsonl');
    expect(result.code).toBe(EXIT.invalid);
    expect(result.stderr.split('\n')[0]).toBe(
      'unknown option --recrods for drill; did you mean --records? (context-compiler drill --help lists its options)',
    );
    expect(result.stderr).not.toContain('-- "');
  });

  it('drill takes --records and --contract like compile, and judges a receipt against them', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cc-cli-'));
    const scenario = JSON.parse(
      readFileSync(new URL('../../fixtures/retry-policy/scenario.json', import.meta.url), 'utf8'),
    ) as { contract: { task: string } };
    writeFileSync(join(cwd, 'contract.json'), JSON.stringify(scenario.contract));
    writeFileSync(join(cwd, 'edited-contract.json'), JSON.stringify({ ...scenario.contract, task: 'Another task' }));
    writeFileSync(
      join(cwd, 'records.jsonl'),
      readFileSync(new URL('../../fixtures/retry-policy/records.jsonl', import.meta.url)),
    );
    const io = (out: { stdout: string; stderr: string }) => ({
      stdout: (text: string) => (out.stdout += text),
      stderr: (text: string) => (out.stderr += text),
      cwd,
    });
    expect(
      await main(
        ['compile', '--records', 'records.jsonl', '--contract', 'contract.json', '--receipt-out', 'mine.json'],
        io({ stdout: '', stderr: '' }),
      ),
    ).toBe(EXIT.ok);
    const current = { stdout: '', stderr: '' };
    expect(
      await main(
        ['drill', '--receipt', 'mine.json', '--records', 'records.jsonl', '--contract', 'contract.json'],
        io(current),
      ),
      current.stderr,
    ).toBe(EXIT.ok);
    expect(current.stdout).toContain('RECEIPT_CURRENT');
    const stale = { stdout: '', stderr: '' };
    expect(
      await main(
        ['drill', '--receipt', 'mine.json', '--records', 'records.jsonl', '--contract', 'edited-contract.json'],
        io(stale),
      ),
    ).toBe(EXIT.recompileRequired);
    expect(stale.stdout).toContain('STALE_CONTRACT_FINGERPRINT');
    const rehearsal = { stdout: '', stderr: '' };
    expect(await main(['drill', '--records', 'records.jsonl', '--contract', 'contract.json'], io(rehearsal))).toBe(
      EXIT.invalid,
    );
    expect(rehearsal.stderr).toContain('give --receipt FILE');
  });

  it('refuses forged receipts from drill --receipt with exit 2, naming the first differing field', async () => {
    const saved = await run('compile', '--scenario', 'atlas-credit-review', '--receipt-out', 'receipt.json');
    const genuine = JSON.parse(readFileSync(join(saved.cwd, 'receipt.json'), 'utf8')) as Receipt;
    const forge = (name: string, edit: (body: Omit<Receipt, 'receiptId'>) => Omit<Receipt, 'receiptId'>) => {
      const { receiptId: _id, ...body } = genuine;
      const edited = edit(body);
      writeFileSync(join(saved.cwd, name), JSON.stringify({ receiptId: receiptIdOf(sha256InNode, edited), ...edited }));
    };
    forge('slot.json', (body) => ({
      ...body,
      evidence: body.evidence.map((slot) =>
        slot.proposition === 'waiver_valid' ? { ...slot, state: 'supported' as const } : slot,
      ),
      decisionBlockedBy: [],
    }));
    forge('row.json', (body) => ({
      ...body,
      trace: body.trace.map((row) => (row.id === 'W-55' ? { ...row, decision: 'selected' as const } : row)),
    }));
    forge('packet.json', (body) => ({ ...body, selected: [...body.selected, 'W-55'] }));
    const expected = {
      'slot.json': 'decisionBlockedBy[0]',
      'row.json': 'trace[W-55].decision (record W-55)',
      'packet.json': 'selected[4] (record W-55)',
    };
    for (const [name, first] of Object.entries(expected)) {
      let stdout = '';
      const code = await main(['drill', '--scenario', 'atlas-credit-review', '--receipt', name], {
        stdout: (text) => (stdout += text),
        stderr: () => {},
        cwd: saved.cwd,
      });
      expect(code, name).toBe(EXIT.failClosed);
      expect(stdout, name).toContain('BLOCKED (RECEIPT_MISMATCH)');
      expect(stdout, name).toContain(`first difference: ${first}`);
    }
    let json = '';
    await main(['drill', '--scenario', 'atlas-credit-review', '--receipt', 'row.json', '--json'], {
      stdout: (text) => (json += text),
      stderr: () => {},
      cwd: saved.cwd,
    });
    expect(JSON.parse(json)).toMatchObject({
      code: 'RECEIPT_MISMATCH',
      reperformed: false,
      mismatch: { path: 'trace[W-55].decision', recordId: 'W-55' },
    });
    expect(
      await main(['drill', '--scenario', 'atlas-credit-review', '--receipt', 'receipt.json'], {
        stdout: () => {},
        stderr: () => {},
        cwd: saved.cwd,
      }),
    ).toBe(EXIT.ok);
  });

  it('shows why a receipt from another as-of date is stale: the diff names the field', async () => {
    const saved = await run(
      'compile',
      '--scenario',
      'atlas-credit-review',
      '--control',
      'decide-one-day-later',
      '--receipt-out',
      'receipt.json',
    );
    let stdout = '';
    const code = await main(['drill', '--scenario', 'atlas-credit-review', '--receipt', 'receipt.json'], {
      stdout: (text) => (stdout += text),
      stderr: () => {},
      cwd: saved.cwd,
    });
    expect(code).toBe(EXIT.recompileRequired);
    expect(stdout).toContain('STALE — RECOMPILE REQUIRED (STALE_CONTRACT_FINGERPRINT)');
    expect(stdout).toContain('asOf 2026-08-31T00:00:00.000Z → 2026-08-30T00:00:00.000Z');
    expect(stdout).toContain('ADD-7 EXCLUDE_EXPIRED → SELECTED_EVIDENCE');
    expect(stdout).not.toContain('not reperformed');
  });

  it('runs every built-in scenario through the self-checks', async () => {
    const result = await run('check');
    expect(result.stdout).toMatch(/^\d+ passed, 0 failed$/m);
    expect(result.code).toBe(EXIT.ok);
  });
});
