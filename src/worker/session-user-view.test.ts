import { sha256 } from '../core/test-support/sha256';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import type { Contract } from '../core/format/contract';
import type { SourceRecord } from '../core/format/record';
import { userViewExportSchema } from '../core/format/user-view-export';
import { createRecordSet } from '../core/phases/1-validate/validate';
import { propertyParameters } from '../core/test-support/arbitraries';
import {
  malformedCaseArbitrary,
  malformedWithheldFile,
  recordsFileOf,
  withOtherSecrets,
} from '../core/test-support/malformed-withheld';
import { sharedDriver } from '../core/test-support/node-driver';
import { maskWithheldCount } from '../core/test-support/withheld-count-mask';
import { withheldCases, withheldChange } from '../core/test-support/withheld-mutations';
import { readBuiltinScenarios } from './workspace/builtin-sources';
import { MAX_TRACE_WINDOW } from './protocol';
import { createSession } from './session';
import { DEFAULT_TRACE_QUERY } from '../shared/trace-page';

const RUNS = 40;
const TIMEOUT_MS = 300_000;

let compiler: SqliteCompiler;

const memoryStorage = () => ({
  read: async () => undefined,
  write: async () => undefined,
  clear: async () => undefined,
  watch: () => undefined,
});

/**
 * What the app's user view gets from the worker for one scenario, the withheld count masked: the compile
 * view (audit strip, packet, columns, evidence, failure), the trace rows, the packet JSON and the
 * user-view document that "Download user view" saves.
 */
async function userViewModel(contract: Contract, records: readonly SourceRecord[]) {
  const scenario = {
    id: 'generated',
    title: 'Generated',
    description: '',
    contract,
    records,
    controls: [],
    lateChanges: [],
  };
  return userViewModelOf([{ name: 'generated.scenario.json', blob: new Blob([JSON.stringify(scenario)]) }]);
}

/** The same for a records file and a contract dropped together. */
async function userViewModelOfFiles(contract: Contract, recordsText: string) {
  return userViewModelOf([
    { name: 'records.jsonl', blob: new Blob([recordsText]) },
    { name: 'contract.json', blob: new Blob([JSON.stringify(contract)]) },
  ]);
}

async function userViewModelOf(files: { readonly name: string; readonly blob: Blob }[]) {
  const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
  await session.start();
  const loaded = await session.loadFiles(files, () => undefined);
  if (loaded.status !== 'loaded') throw new Error(`the generated scenario does not load: ${JSON.stringify(loaded)}`);
  const compiled = await session.compile('user');
  if (!compiled.ok) return { error: compiled.error.code };
  const { withheldCount, withheldNotice: _notice, counts, recordCount, packetText, ...view } = compiled.view;
  const { withheld: _withheld, ...visibleCounts } = counts;
  const trace = session.queryTrace({ ...DEFAULT_TRACE_QUERY, audience: 'user', offset: 0, limit: MAX_TRACE_WINDOW });
  const packet = session.packetJson('user');
  const {
    withheldCount: _count,
    withheldNotice: _documentNotice,
    ...document
  } = userViewExportSchema.parse(JSON.parse(session.userViewJson() ?? ''));
  return {
    view: {
      ...view,
      counts: visibleCounts,
      packetText: packetText === null ? null : maskWithheldCount(packetText),
      visibleRecords: recordCount - withheldCount,
    },
    trace,
    packet: packet === null ? null : maskPacketJson(packet),
    document,
  };
}

function maskPacketJson(json: string) {
  const packet = JSON.parse(json) as { text: string };
  return { ...packet, text: maskWithheldCount(packet.text) };
}

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

describe('the session in the user view', () => {
  it(
    "noninterference: changing any field of withheld records, adding or removing them, breaking their supersession links, changes nothing of the user view's model but the withheld count",
    async () => {
      let checked = 0;
      await fc.assert(
        fc.asyncProperty(withheldCases({ donorCopies: true }), async (input) => {
          const changed = await withheldChange(compiler, input);
          fc.pre(changed !== null);
          if (changed === null) return;
          checked += 1;
          const a = await userViewModel(input.contract, changed.before);
          const b = await userViewModel(input.contract, changed.records);
          expect(a).not.toHaveProperty('error');
          expect(b).toEqual(a);
        }),
        propertyParameters(RUNS),
      );
      expect(checked).toBeGreaterThan(RUNS / 4);
    },
    TIMEOUT_MS,
  );

  it(
    "noninterference: a withheld line of a dropped records file that cannot be read or judged, or duplicates an id, changes nothing of the user view's model but the withheld count",
    async () => {
      let checked = 0;
      await fc.assert(
        fc.asyncProperty(malformedCaseArbitrary, async (raw) => {
          const prepared = await malformedWithheldFile(
            raw,
            async (input) =>
              (await compiler.compile({ contract: input.contract, recordSet: createRecordSet(sha256, input.records) }))
                .ok,
          );
          fc.pre(prepared !== null);
          const { input, file } = prepared;
          checked += 1;
          const before = await userViewModelOfFiles(input.contract, recordsFileOf(input, false).text);
          const after = await userViewModelOfFiles(input.contract, file.text);
          const other = await userViewModelOfFiles(input.contract, recordsFileOf(withOtherSecrets(input), true).text);
          expect(before).not.toHaveProperty('error');
          expect(after).toEqual(before);
          expect(other).toEqual(before);
          for (const line of input.lines) expect(JSON.stringify(after)).not.toContain(line.secret);
        }),
        propertyParameters(RUNS / 2),
      );
      expect(checked).toBeGreaterThan(RUNS / 4);
    },
    TIMEOUT_MS,
  );
});
