import { beforeAll, describe, expect, it } from 'vitest';
import { prepareScenario } from '../scenarios/prepare';
import retryScenario from '../../fixtures/retry-policy/scenario.json?raw';
import retryRecords from '../../fixtures/retry-policy/records.jsonl?raw';
import atlasScenario from '../../fixtures/atlas-credit-review/scenario.json?raw';
import atlasRecords from '../../fixtures/atlas-credit-review/records.jsonl?raw';
import { createCompiler, type CompileRequest, type Compiler } from './compile';
import { counterfactuals } from './counterfactual';
import { createRecordSet, parseScenarioJson } from './passes/validate';
import { renderSuggestion } from './reasons';
import { buildContract, buildRecord, valueOf } from './test-support/builders';
import { sharedDriver } from './test-support/node-driver';

type ScenarioId = 'retry-policy' | 'atlas-credit-review';
const SCENARIOS: Readonly<Record<ScenarioId, readonly [string, string]>> = { 'retry-policy': [retryScenario, retryRecords], 'atlas-credit-review': [atlasScenario, atlasRecords] };
let compiler: Compiler;
const requests = new Map<ScenarioId, CompileRequest>();

beforeAll(async () => {
  compiler = createCompiler(await sharedDriver());
  for (const [id, [scenario, records]] of Object.entries(SCENARIOS) as [ScenarioId, readonly [string, string]][]) {
    const loaded = valueOf(parseScenarioJson('scenario.json', scenario, (name) => (name === 'records.jsonl' ? records : null)));
    requests.set(id, valueOf(prepareScenario(loaded, { controls: [], lateChanges: [] })));
  }
});

function requestOf(id: ScenarioId): CompileRequest {
  const request = requests.get(id);
  if (request === undefined) throw new Error(id);
  return request;
}

/** Whether the record is admitted once the suggestion's contract change is compiled for real. */
function admittedUnder(request: CompileRequest, id: string, contract: CompileRequest['contract']): boolean {
  return valueOf(compiler.compile({ ...request, contract })).admitted.has(id);
}

describe('what would admit or exclude a record', () => {
  it('admits an expired record by an as-of before its validity ends, and a future one by an as-of after it starts', () => {
    const request = requestOf('atlas-credit-review');
    const expired = counterfactuals(compiler, request, 'W-55', 'diagnostic');
    expect(expired).toEqual([{ code: 'SET_AS_OF_BEFORE', args: { asOf: '2026-08-28T23:59:59.999Z' } }]);
    expect(renderSuggestion(expired[0]!)).toBe('set the as-of to 2026-08-28T23:59:59.999Z or earlier');
    expect(admittedUnder(request, 'W-55', { ...request.contract, asOf: '2026-08-28T23:59:59.999Z' })).toBe(true);
    expect(admittedUnder(request, 'W-55', { ...request.contract, asOf: '2026-08-29T00:00:00.000Z' })).toBe(false);
    expect(counterfactuals(compiler, request, 'P4-LOCAL', 'diagnostic')).toEqual([{ code: 'SET_AS_OF_AFTER', args: { asOf: '2026-08-31T00:00:00.000Z' } }]);
  });

  it('drops a deny label in the diagnostic view, supplies missing provenance, and offers nothing for a record the user view withholds', () => {
    const request = requestOf('retry-policy');
    expect(counterfactuals(compiler, request, 'LGL-0007', 'diagnostic')).toEqual([{ code: 'DROP_DENY_LABELS', args: { labels: ['legal_hold'] } }]);
    expect(counterfactuals(compiler, request, 'LGL-0007', 'user')).toEqual([]);
    expect(counterfactuals(compiler, request, 'RUN-0866', 'user').map((s) => s.code)).toEqual(['SUPPLY_PROVENANCE']);
  });

  it('drops a candidate the compiler does not confirm: a role added where the purpose is not released either', () => {
    const request = requestOf('retry-policy');
    const sec = valueOf(compiler.compile(request)).trace.find((row) => row.id === 'SEC-0042');
    expect(sec?.gates).toEqual(['authorisation']);
    expect(counterfactuals(compiler, request, 'SEC-0042', 'diagnostic')).toEqual([]);
  });

  it('adds a role, a source class and an authority class when each alone admits the record', () => {
    const contract = buildContract({ requiredRecords: [] });
    const records = [
      buildRecord({ id: 'ROLE', access: { roles: ['lead'] } }),
      buildRecord({ id: 'SRC', sourceClass: 'chat' }),
      buildRecord({ id: 'AUTH', authorityClass: 'opinion' }),
    ];
    const request = { contract, recordSet: createRecordSet(records) };
    expect(counterfactuals(compiler, request, 'ROLE', 'diagnostic')).toEqual([{ code: 'ADD_ROLE', args: { principal: 'dana', role: 'lead' } }]);
    expect(counterfactuals(compiler, request, 'ROLE', 'user')).toEqual([]);
    expect(counterfactuals(compiler, request, 'SRC', 'user')).toEqual([{ code: 'ALLOW_SOURCE_CLASS', args: { sourceClass: 'chat' } }]);
    expect(counterfactuals(compiler, request, 'AUTH', 'user')).toEqual([{ code: 'ALLOW_AUTHORITY_CLASS', args: { authorityClass: 'opinion' } }]);
  });

  it('says what would exclude an admitted record: a label denied, its source class dropped, an as-of outside its validity', () => {
    const contract = buildContract({ requiredRecords: [] });
    const request = { contract, recordSet: createRecordSet([buildRecord({ id: 'OK', validTo: '2026-09-30T00:00:00Z', access: { labels: ['finance'] } })]) };
    expect(counterfactuals(compiler, request, 'OK', 'user')).toEqual([
      { code: 'DENY_LABEL', args: { label: 'finance' } },
      { code: 'DISALLOW_SOURCE_CLASS', args: { sourceClass: 'ticket' } },
      { code: 'SET_AS_OF_AFTER', args: { asOf: '2026-09-30T00:00:00.001Z' } },
      { code: 'SET_AS_OF_BEFORE', args: { asOf: '2026-07-31T23:59:59.999Z' } },
    ]);
  });

  it('in the user view, removing a withheld record does not change the suggestions for a visible one', () => {
    const request = requestOf('atlas-credit-review');
    const withheldId = 'X9';
    const without = { ...request, recordSet: createRecordSet(request.recordSet.records.filter((r) => r.id !== withheldId)) };
    for (const id of ['W-55', 'P4-LOCAL', 'ADD-7', 'E-88', 'N7']) {
      const suggestions = counterfactuals(compiler, request, id, 'user');
      expect(counterfactuals(compiler, without, id, 'user')).toEqual(suggestions);
      expect(JSON.stringify(suggestions)).not.toContain(withheldId);
    }
  });
});
