import { sha256InNode } from '../../lib/node-sha256';
import { readdirSync, existsSync } from 'node:fs';
import { createRecordSet, type LoadedScenario } from '../../core/phases/1-validate/validate';
import { serialiseReceipt } from '../../core/phases/7-attest/attest';
import type { Receipt } from '../../core/result';
import type { ScenarioSelection } from '../../core/compile';
import { FIXTURES_DIR, builtinScenarioPath } from '../builtin-paths';
import { EXIT, type CliIo, type ExitCode } from '../command';
import { defineCommand } from '../define-command';
import { library } from '../library';
import { noPositionals } from '../options';
import { readScenarioFile } from '../read-scenario';
import { reportError } from '../render';
import { DEFAULT_SCHEMA } from '../../adapters/postgres/schema';
import { createUnicodeTokeniser } from '../../adapters/postgres/unicode61';
import { inScratchSchema } from '../database';
import { forgedCopy, invariantProblems, type CheckResult } from '../check-invariants';
import { databaseChecks, type ScenarioChecks } from '../check-database';

function builtinScenarioIds(): string[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(builtinScenarioPath(entry.name)))
    .map((entry) => entry.name)
    .sort();
}

/** Runs one scenario variant through the deterministic self-checks, each compile on a fresh database. */
async function checkVariant(
  loaded: LoadedScenario,
  selection: ScenarioSelection,
  name: string,
): Promise<CheckResult[]> {
  const variant = { scenario: loaded, ...selection };
  const first = await library.compileInDetail(variant);
  if (!first.ok) return [{ name, passed: false, detail: `${first.error.code}: ${first.error.message}` }];
  const { request, outcome } = first.value;
  const summary =
    outcome.status === 'packet'
      ? `packet, ${outcome.receipt.selected.length} selected`
      : `fail-closed ${outcome.failure.code}`;
  const results: CheckResult[] = [];
  const problems = invariantProblems(request, outcome);
  results.push({
    name: `${name}: compiles and keeps its invariants`,
    passed: problems.length === 0,
    detail: problems.join('; ') || summary,
  });

  const again = await library.compileInDetail(variant);
  const same = again.ok && serialiseReceipt(again.value.outcome.receipt) === serialiseReceipt(outcome.receipt);
  results.push({
    name: `${name}: byte-identical receipt on a fresh database`,
    passed: same,
    detail: same ? outcome.receipt.receiptId.slice(0, 12) : 'receipts differ',
  });

  // The receipt check's rule: its own inputs reproduce it, and a copy edited with a recomputed id is refused.
  const verdictCode = async (receipt: Receipt) => {
    const verdict = await library.drill({ ...variant, receipt, declaredChanges: [] });
    return verdict.ok ? verdict.value.code : verdict.error.code;
  };
  const own = await verdictCode(outcome.receipt);
  const expected = outcome.status === 'packet' ? 'RECEIPT_CURRENT' : 'RECEIPT_FAIL_CLOSED';
  const forged = await verdictCode(forgedCopy(outcome.receipt));
  const reperformed = own === expected && forged === 'RECEIPT_MISMATCH';
  results.push({
    name: `${name}: reperformed, the receipt is ${expected}; a forged copy is refused`,
    passed: reperformed,
    detail: `own inputs → ${own}; edited trace row → ${forged}`,
  });

  const reversed = {
    scenario: loaded.scenario,
    recordSet: createRecordSet(sha256InNode, [...loaded.recordSet.records].reverse(), loaded.recordSet.locations),
  };
  const shuffled = await library.compileInDetail({ ...variant, scenario: reversed });
  const orderFree =
    shuffled.ok && serialiseReceipt(shuffled.value.outcome.receipt) === serialiseReceipt(outcome.receipt);
  results.push({
    name: `${name}: receipt independent of record order`,
    passed: orderFree,
    detail: orderFree ? 'reversed records, same bytes' : 'receipts differ',
  });
  return results;
}

async function checkDrill(loaded: LoadedScenario, changeId: string): Promise<CheckResult> {
  const name = `${loaded.scenario.id}: fire drill with ${changeId}`;
  const rehearsal = await library.rehearse({ scenario: loaded, controls: [], lateChanges: [changeId] });
  if (!rehearsal.ok) return { name, passed: false, detail: rehearsal.error.message };
  const { stale, resumed } = rehearsal.value;
  const passed = stale.action === 'recompile_required' && resumed.action === 'continue';
  return { name, passed, detail: `frozen receipt → ${stale.code}; recompiled → ${resumed.code}` };
}

const builtinChecks: ScenarioChecks = { variant: checkVariant, drill: checkDrill };

/** Every check of every built-in scenario, run by `checks`. */
async function checkAll(checks: ScenarioChecks, io: CliIo): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const id of builtinScenarioIds()) {
    const loaded = await readScenarioFile(builtinScenarioPath(id));
    if (!loaded.ok) {
      reportError(io, loaded.error);
      results.push({ name: `${id}: loads`, passed: false, detail: loaded.error.message });
      continue;
    }
    const { scenario } = loaded.value;
    const add = (checked: readonly CheckResult[]) => {
      for (const result of checked) results.push(result);
    };
    add(await checks.variant(loaded.value, { controls: [], lateChanges: [] }, `${id}/default`));
    for (const control of scenario.controls)
      add(await checks.variant(loaded.value, { controls: [control.id], lateChanges: [] }, `${id}/${control.id}`));
    for (const change of scenario.lateChanges) {
      add(await checks.variant(loaded.value, { controls: [], lateChanges: [change.id] }, `${id}/${change.id}`));
      results.push(await checks.drill(loaded.value, change.id));
    }
  }
  return results;
}

export const checkCommand = defineCommand({
  name: 'check',
  summary: 'run every built-in scenario, control and late change through the deterministic self-checks',
  usage: `usage: context-compiler check [--database postgres://… [--schema NAME]]
For every scenario under fixtures/ (default, each control alone, each late change): compiles, checks the
receipt's invariants, reperforms it (current) and a copy with one trace row edited and its id recomputed
(RECEIPT_MISMATCH), recompiles on a fresh database and with the records reversed (byte-identical
receipts required), and rehearses the fire drill (stale, then current after recompiling).
With --database, every compile and drill runs in PostgreSQL instead, over each variant's records loaded
into a scratch schema (default context_compiler_check, dropped after; never the one \`load\` writes), and
each receipt must be the built-in path's but for the adapter it names.
exit: 0 all checks passed · 1 a check failed`,
  options: { database: { type: 'string' }, schema: { type: 'string', default: 'context_compiler_check' } },
  positionals: noPositionals,
  async run({ values: { database: url, schema }, usageError }, io) {
    if (url === undefined) return report(await checkAll(builtinChecks, io), io);
    if (schema === DEFAULT_SCHEMA) return usageError('SCRATCH_SCHEMA', { schema: DEFAULT_SCHEMA });
    return inScratchSchema(url, schema, io, async (database) =>
      report(await checkAll(databaseChecks(database, createUnicodeTokeniser()), io), io),
    );
  },
});

/** One line per check, then the totals: exit 0 when every check passed. */
function report(results: readonly CheckResult[], io: CliIo): ExitCode {
  for (const result of results) io.stdout(`${result.passed ? 'ok  ' : 'FAIL'} ${result.name}: ${result.detail}\n`);
  const failed = results.filter((result) => !result.passed).length;
  io.stdout(`${results.length - failed} passed, ${failed} failed\n`);
  return failed === 0 ? EXIT.ok : EXIT.invalid;
}
