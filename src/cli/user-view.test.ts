import { sha256InNode } from '../lib/node-sha256';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import type { Contract } from '../core/format/contract';
import type { SourceRecord } from '../core/format/record';
import { userViewExportSchema } from '../core/format/user-view-export';
import { propertyParameters } from '../core/test-support/arbitraries';
import { sharedDriver } from '../core/test-support/node-driver';
import { maskWithheldCount } from '../core/test-support/withheld-count-mask';
import { withheldCases, withheldChange } from '../core/test-support/withheld-mutations';
import { userViewIdOf } from '../core/user-view';
import { createRecordSet } from '../core/phases/1-validate/validate';
import {
  malformedCaseArbitrary,
  malformedWithheldFile,
  recordsFileOf,
  withOtherSecrets,
} from '../core/test-support/malformed-withheld';
import { EXIT } from './command';

import { runMain } from './test-support/run-main';

const RUNS = 40;
const TIMEOUT_MS = 300_000;

const run = (cwd: string, ...args: string[]) => runMain(args, cwd);

const read = (cwd: string, name: string) => {
  try {
    return readFileSync(join(cwd, name), 'utf8');
  } catch {
    return null;
  }
};

/** The user-view document with its withheld count left out. */
function maskDocument(text: string | null): unknown {
  if (text === null) return null;
  const { withheldCount: _count, withheldNotice: _notice, ...rest } = userViewExportSchema.parse(JSON.parse(text));
  return rest;
}

/**
 * Every output of `compile --view user` over these inputs: text with the packet, --packet-out, --user-view-out, and
 * --json, the count masked.
 */
async function userOutputs(records: readonly SourceRecord[], contract: Contract) {
  return userOutputsOfFile(records.map((record) => JSON.stringify(record)).join('\n'), contract);
}

async function userOutputsOfFile(recordsText: string, contract: Contract) {
  const cwd = mkdtempSync(join(tmpdir(), 'cc-user-view-'));
  writeFileSync(join(cwd, 'records.jsonl'), recordsText);
  writeFileSync(join(cwd, 'contract.json'), JSON.stringify(contract));
  const inputs = ['--records', 'records.jsonl', '--contract', 'contract.json', '--view', 'user'];
  const text = await run(
    cwd,
    'compile',
    ...inputs,
    '--trace',
    '--packet-out',
    'packet.txt',
    '--user-view-out',
    'user-view.json',
  );
  const json = await run(cwd, 'compile', ...inputs, '--json');
  const parsed = JSON.parse(json.stdout) as {
    withheld?: unknown;
    packet: string | null;
    counts: { withheld?: number };
    userView: string;
  };
  const { withheld: _notice, ...shown } = parsed;
  const { withheld: _count, ...counts } = parsed.counts;
  return {
    code: [text.code, json.code],
    stderr: text.stderr + json.stderr,
    text: maskWithheldCount(text.stdout),
    packetOut: read(cwd, 'packet.txt') === null ? null : maskWithheldCount(read(cwd, 'packet.txt') ?? ''),
    userViewOut: maskDocument(read(cwd, 'user-view.json')),
    json: {
      ...shown,
      packet: parsed.packet === null ? null : maskWithheldCount(parsed.packet),
      counts,
      userView: maskDocument(JSON.stringify(parsed.userView)),
    },
  };
}

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256InNode, await sharedDriver());
});

describe('compile --view user', () => {
  it(
    'noninterference: changing any field of withheld records, adding or removing them, breaking their supersession links, changes no user-view output but the withheld count',
    async () => {
      let checked = 0;
      await fc.assert(
        fc.asyncProperty(withheldCases({ donorCopies: true }), async (input) => {
          const changed = await withheldChange(compiler, input);
          fc.pre(changed !== null);
          if (changed === null) return;
          checked += 1;
          const [a, b] = await Promise.all([
            userOutputs(changed.before, input.contract),
            userOutputs(changed.records, input.contract),
          ]);
          // It compiled in-process, so every run answered with a packet or a refusal, never an input or usage error.
          expect(
            a.code.every((code) => code === EXIT.ok || code === EXIT.failClosed),
            a.stderr,
          ).toBe(true);
          expect(b).toEqual(a);
          expect(a.text).not.toMatch(/^receipt /m);
        }),
        propertyParameters(RUNS),
      );
      expect(checked).toBeGreaterThan(RUNS / 4);
    },
    TIMEOUT_MS,
  );

  it(
    'noninterference: a withheld line that cannot be read or judged, or duplicates an id, changes no user-view output but the withheld count, and none of it shows',
    async () => {
      let checked = 0;
      await fc.assert(
        fc.asyncProperty(malformedCaseArbitrary, async (raw) => {
          const prepared = await malformedWithheldFile(
            raw,
            async (input) =>
              (
                await compiler.compile({
                  contract: input.contract,
                  recordSet: createRecordSet(sha256InNode, input.records),
                })
              ).ok,
          );
          fc.pre(prepared !== null);
          const { input, file } = prepared;
          checked += 1;
          const [before, after, other] = await Promise.all([
            userOutputsOfFile(recordsFileOf(input, false).text, input.contract),
            userOutputsOfFile(file.text, input.contract),
            userOutputsOfFile(recordsFileOf(withOtherSecrets(input), true).text, input.contract),
          ]);
          expect(
            before.code.every((code) => code === EXIT.ok || code === EXIT.failClosed),
            before.stderr,
          ).toBe(true);
          expect(after).toEqual(before);
          expect(other).toEqual(before);
          for (const line of input.lines) expect(JSON.stringify(after)).not.toContain(line.secret);
        }),
        propertyParameters(RUNS),
      );
      expect(checked).toBeGreaterThan(RUNS / 2);
    },
    TIMEOUT_MS,
  );

  it('on retry-policy, a new title for withheld LGL-0007 changes no byte of any user-view output, and the user-view id is recomputable', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cc-retitled-'));
    const fixture = join(__dirname, '../../fixtures/retry-policy');
    writeFileSync(join(cwd, 'scenario.json'), readFileSync(join(fixture, 'scenario.json')));
    const original = readFileSync(join(fixture, 'records.jsonl'), 'utf8');
    const outputs = async (records: string) => {
      writeFileSync(join(cwd, 'records.jsonl'), records);
      const text = await run(
        cwd,
        'compile',
        '--scenario',
        'scenario.json',
        '--view',
        'user',
        '--trace',
        '--packet-out',
        'packet.txt',
        '--user-view-out',
        'user-view.json',
      );
      const json = await run(cwd, 'compile', '--scenario', 'scenario.json', '--view', 'user', '--json');
      return {
        text: text.stdout,
        json: json.stdout,
        packet: read(cwd, 'packet.txt'),
        userView: read(cwd, 'user-view.json'),
      };
    };
    const before = await outputs(original);
    const retitled = original
      .split('\n')
      .map((line) =>
        line.includes('"LGL-0007"')
          ? JSON.stringify({ ...(JSON.parse(line) as object), title: 'A new title for the legal hold' })
          : line,
      )
      .join('\n');
    expect(retitled).not.toBe(original);
    expect(await outputs(retitled)).toEqual(before);

    const document = userViewExportSchema.parse(JSON.parse(before.userView ?? ''));
    expect(document.userViewId).toBe(userViewIdOf(sha256InNode, document));
    expect(before.text).toContain(`user view ${document.userViewId}`);
    expect(before.text).toMatch(/selected 4 · excluded 7 · withheld 2 · ranking/);
    expect(before.packet).toContain(`user view: ${document.userViewId}`);
    expect(before.packet).not.toMatch(/^(receipt|record set):/m);
    const json = JSON.parse(before.json) as Record<string, unknown>;
    expect(json).not.toHaveProperty('receipt');
    expect(json).toMatchObject({ counts: { excluded: 7, withheld: 2 }, userView: { userViewId: document.userViewId } });
    for (const output of Object.values(before)) expect(output).not.toMatch(/LGL-0007|SEC-0042/);
  });

  it('refuses --receipt-out and --statement-out with --view user: the diagnostic receipt needs the diagnostic view', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cc-user-out-'));
    for (const flag of ['--receipt-out', '--statement-out']) {
      const result = await run(cwd, 'compile', '--view', 'user', flag, 'out.json');
      expect(result.code, flag).toBe(EXIT.invalid);
      expect(result.stderr).toContain(
        `${flag} writes the diagnostic receipt, which names every record: it needs --view diagnostic`,
      );
      expect(read(cwd, 'out.json')).toBeNull();
    }
    // --user-view-out is the user view from either view.
    expect((await run(cwd, 'compile', '--user-view-out', 'user-view.json')).code).toBe(EXIT.ok);
    expect(userViewExportSchema.parse(JSON.parse(read(cwd, 'user-view.json') ?? '')).withheldCount).toBe(2);
  });
});
