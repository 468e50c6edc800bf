import { sha256InNode } from '../lib/node-sha256';
import { compileRecords, inRecordSnapshot, type DatabaseCompile } from '../adapters/postgres/compile-in-database';
import { drillInDatabase, type DatabaseInputs } from '../adapters/postgres/drill-in-database';
import { loadRecordSet } from '../adapters/postgres/load-records';
import type { Database } from '../adapters/postgres/schema';
import type { Tokeniser } from '../adapters/postgres/tokens';
import { namingAdapterOf } from '../adapters/conformance/conformance-suite';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import type { CompileError, Result } from '../core/errors';
import { serialiseReceipt } from '../core/phases/7-attest/attest';
import { createRecordSet, type LoadedScenario, type RecordSet } from '../core/phases/1-validate/validate';
import { prepareScenario, type ScenarioSelection, type CompileRequest } from '../core/compile';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { forgedCopy, invariantProblems, type CheckResult } from './check-invariants';

/** `check`'s two kinds of check of a scenario: each variant, and the fire drill of each late change. */
export interface ScenarioChecks {
  variant(loaded: LoadedScenario, selection: ScenarioSelection, name: string): Promise<CheckResult[]>;
  drill(loaded: LoadedScenario, changeId: string): Promise<CheckResult>;
}

/**
 * `check --database`: the same checks with every compile and drill run by the PostgreSQL adapter, over the
 * variant's records loaded into `database` (a scratch schema), and each receipt compared with the built-in
 * path's: equal but for the adapter it names.
 */
export function databaseChecks(database: Database, tokeniser: Tokeniser): ScenarioChecks {
  const compileLoaded = async (
    inputs: DatabaseInputs,
    records: RecordSet,
  ): Promise<Result<DatabaseCompile, CompileError>> => {
    const loaded = await loadRecordSet(sha256InNode, database, 'records.jsonl', records, tokeniser);
    if (!loaded.ok) return loaded;
    return inRecordSnapshot(sha256InNode, database, {}, async (recordSet, shards) =>
      compileRecords(sha256InNode, database, { ...inputs, recordSet }, tokeniser, shards),
    );
  };
  const inputsOf = ({ recordSet: _records, ...inputs }: CompileRequest): DatabaseInputs => inputs;
  const failed = (name: string, error: CompileError): CheckResult => ({
    name,
    passed: false,
    detail: `${error.code}: ${error.message}`,
  });

  return {
    async variant(loaded, selection, name) {
      const request = prepareScenario(sha256InNode, loaded, selection);
      if (!request.ok) return [{ name, passed: false, detail: request.error.message }];
      const builtin = await createSqliteCompiler(sha256InNode, await openInMemoryDatabase()).compile(request.value);
      if (!builtin.ok) return [failed(`${name}: compiles built in`, builtin.error)];
      const inputs = inputsOf(request.value);
      const compiled = await compileLoaded(inputs, request.value.recordSet);
      if (!compiled.ok) return [failed(`${name}: compiles in the database`, compiled.error)];
      const { outcome } = compiled.value;
      const receipt = serialiseReceipt(outcome.receipt);
      const results: CheckResult[] = [];
      const same =
        serialiseReceipt(namingAdapterOf(outcome.receipt, builtin.value.receipt)) ===
        serialiseReceipt(builtin.value.receipt);
      results.push({
        name: `${name}: in the database, the built-in receipt but for the adapter it names`,
        passed: same,
        detail: same ? outcome.receipt.receiptId.slice(0, 12) : 'receipts differ',
      });
      const problems = invariantProblems(compiled.value.request, outcome);
      results.push({
        name: `${name}: keeps its invariants`,
        passed: problems.length === 0,
        detail:
          problems.join('; ') ||
          (outcome.status === 'packet'
            ? `packet, ${outcome.receipt.selected.length} selected`
            : `fail-closed ${outcome.failure.code}`),
      });

      const own = await drillInDatabase(sha256InNode, database, inputs, outcome.receipt, [], tokeniser);
      const forged = await drillInDatabase(sha256InNode, database, inputs, forgedCopy(outcome.receipt), [], tokeniser);
      const expected = outcome.status === 'packet' ? 'RECEIPT_CURRENT' : 'RECEIPT_FAIL_CLOSED';
      const codes = [own.ok ? own.value.code : own.error.code, forged.ok ? forged.value.code : forged.error.code];
      results.push({
        name: `${name}: reperformed in the database, the receipt is ${expected}; a forged copy is refused`,
        passed: codes[0] === expected && codes[1] === 'RECEIPT_MISMATCH',
        detail: `own inputs → ${codes[0]}; edited trace row → ${codes[1]}`,
      });

      const reversed = await compileLoaded(
        inputs,
        createRecordSet(
          sha256InNode,
          [...request.value.recordSet.records].reverse(),
          request.value.recordSet.locations,
        ),
      );
      const orderFree = reversed.ok && serialiseReceipt(reversed.value.outcome.receipt) === receipt;
      results.push({
        name: `${name}: receipt independent of the order the records were loaded in`,
        passed: orderFree,
        detail: orderFree ? 'reversed records, same bytes' : 'receipts differ',
      });
      return results;
    },

    async drill(loaded, changeId) {
      const name = `${loaded.scenario.id}: fire drill with ${changeId} in the database`;
      const before = prepareScenario(sha256InNode, loaded, { controls: [], lateChanges: [] });
      const after = prepareScenario(sha256InNode, loaded, { controls: [], lateChanges: [changeId] });
      if (!before.ok || !after.ok) return { name, passed: false, detail: 'scenario does not prepare' };
      const frozen = await compileLoaded(inputsOf(before.value), before.value.recordSet);
      if (!frozen.ok) return failed(name, frozen.error);
      const recompiled = await compileLoaded(inputsOf(after.value), after.value.recordSet);
      if (!recompiled.ok) return failed(name, recompiled.error);
      const stale = await drillInDatabase(
        sha256InNode,
        database,
        inputsOf(after.value),
        frozen.value.outcome.receipt,
        [changeId],
        tokeniser,
      );
      const resumed = await drillInDatabase(
        sha256InNode,
        database,
        inputsOf(after.value),
        recompiled.value.outcome.receipt,
        [changeId],
        tokeniser,
      );
      if (!stale.ok) return failed(name, stale.error);
      if (!resumed.ok) return failed(name, resumed.error);
      const passed = stale.value.action === 'recompile_required' && resumed.value.action === 'continue';
      return { name, passed, detail: `frozen receipt → ${stale.value.code}; recompiled → ${resumed.value.code}` };
    },
  };
}
