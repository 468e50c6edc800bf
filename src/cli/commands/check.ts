import { readdirSync, existsSync } from 'node:fs';
import { createCompiler, type CompileRequest } from '../../core/compile';
import { drill } from '../../core/drill';
import { createRecordSet, type LoadedScenario } from '../../core/passes/validate';
import { receiptIdOf, serialiseReceipt } from '../../core/passes/attest';
import type { CompileOutcome } from '../../core/result';
import { prepareScenario, type ScenarioSelection } from '../../scenarios/prepare';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { FIXTURES_DIR, builtinScenarioPath } from '../builtin-paths';
import { EXIT } from '../command';
import { defineCommand } from '../define-command';
import { noPositionals } from '../options';
import { readScenarioFile } from '../read-scenario';
import { renderError } from '../render';

interface CheckResult {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
}

function builtinScenarioIds(): string[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(builtinScenarioPath(entry.name)))
    .map((entry) => entry.name)
    .sort();
}

function invariantProblems(request: CompileRequest, outcome: CompileOutcome): string[] {
  const problems: string[] = [];
  const { receipt } = outcome;
  const { receiptId, ...body } = receipt;
  if (receiptIdOf(body) !== receiptId) problems.push('receipt id does not hash its body');
  if (receipt.tokensUsed > receipt.contract.tokenBudget) problems.push(`tokens ${receipt.tokensUsed} exceed budget ${receipt.contract.tokenBudget}`);
  if (outcome.trace.length !== request.recordSet.records.length) problems.push(`${outcome.trace.length} trace rows for ${request.recordSet.records.length} candidates`);
  for (const row of outcome.trace) {
    if (row.decision === 'selected' && row.gates.length > 0) problems.push(`${row.id} selected although gate ${row.gates.join(', ')} failed`);
  }
  if (outcome.status === 'fail_closed' && receipt.packetFingerprint !== null) problems.push('fail-closed receipt carries a packet fingerprint');
  for (const id of request.contract.requiredRecords) {
    if (outcome.status === 'packet' && !receipt.selected.includes(id)) problems.push(`required ${id} missing from an emitted packet`);
  }
  return problems;
}

/** Runs one scenario variant through the deterministic self-checks. */
async function checkVariant(loaded: LoadedScenario, selection: ScenarioSelection, name: string): Promise<CheckResult[]> {
  const request = prepareScenario(loaded, selection);
  if (!request.ok) return [{ name, passed: false, detail: request.error.message }];
  const first = createCompiler(await openInMemoryDatabase()).compile(request.value);
  if (!first.ok) return [{ name, passed: false, detail: `${first.error.code}: ${first.error.message}` }];
  const outcome = first.value;
  const summary = outcome.status === 'packet' ? `packet, ${outcome.receipt.selected.length} selected` : `fail-closed ${outcome.failure.code}`;
  const results: CheckResult[] = [];
  const problems = invariantProblems(request.value, outcome);
  results.push({ name: `${name}: compiles and keeps its invariants`, passed: problems.length === 0, detail: problems.join('; ') || summary });

  const again = createCompiler(await openInMemoryDatabase()).compile(request.value);
  const same = again.ok && serialiseReceipt(again.value.receipt) === serialiseReceipt(outcome.receipt);
  results.push({ name: `${name}: byte-identical receipt on a fresh database`, passed: same, detail: same ? outcome.receipt.receiptId.slice(0, 12) : 'receipts differ' });

  // The receipt check's rule: its own inputs reproduce it, and a copy edited with a recomputed id is refused.
  const verifier = createCompiler(await openInMemoryDatabase());
  const own = drill(verifier, { ...request.value, priorReceipt: outcome.receipt, declaredChanges: [] });
  const expected = outcome.status === 'packet' ? 'RECEIPT_CURRENT' : 'RECEIPT_FAIL_CLOSED';
  const { receiptId: _id, ...body } = outcome.receipt;
  const edited = { ...body, trace: body.trace.map((row, index) => (index === 0 ? { ...row, decision: row.decision === 'selected' ? ('excluded' as const) : ('selected' as const) } : row)) };
  const forged = drill(verifier, { ...request.value, priorReceipt: { receiptId: receiptIdOf(edited), ...edited }, declaredChanges: [] });
  const reperformed = own.code === expected && forged.code === 'RECEIPT_MISMATCH';
  results.push({ name: `${name}: reperformed, the receipt is ${expected}; a forged copy is refused`, passed: reperformed, detail: `own inputs → ${own.code}; edited trace row → ${forged.code}` });

  const reversed = { ...request.value, recordSet: createRecordSet([...request.value.recordSet.records].reverse(), request.value.recordSet.locations) };
  const shuffled = createCompiler(await openInMemoryDatabase()).compile(reversed);
  const orderFree = shuffled.ok && serialiseReceipt(shuffled.value.receipt) === serialiseReceipt(outcome.receipt);
  results.push({ name: `${name}: receipt independent of record order`, passed: orderFree, detail: orderFree ? 'reversed records, same bytes' : 'receipts differ' });
  return results;
}

async function checkDrill(loaded: LoadedScenario, changeId: string): Promise<CheckResult> {
  const name = `${loaded.scenario.id}: fire drill with ${changeId}`;
  const compiler = createCompiler(await openInMemoryDatabase());
  const before = prepareScenario(loaded, { controls: [], lateChanges: [] });
  const after = prepareScenario(loaded, { controls: [], lateChanges: [changeId] });
  if (!before.ok || !after.ok) return { name, passed: false, detail: 'scenario does not prepare' };
  const frozen = compiler.compile(before.value);
  if (!frozen.ok) return { name, passed: false, detail: frozen.error.message };
  const stale = drill(compiler, { ...after.value, priorReceipt: frozen.value.receipt, declaredChanges: [changeId] });
  const recompiled = compiler.compile(after.value);
  if (!recompiled.ok) return { name, passed: false, detail: recompiled.error.message };
  const resumed = drill(compiler, { ...after.value, priorReceipt: recompiled.value.receipt, declaredChanges: [changeId] });
  const passed = stale.action === 'recompile_required' && resumed.action === 'continue';
  return { name, passed, detail: `frozen receipt → ${stale.code}; recompiled → ${resumed.code}` };
}

export const checkCommand = defineCommand({
  name: 'check',
  summary: 'run every built-in scenario, control and late change through the deterministic self-checks',
  usage: `usage: context-compiler check
For every scenario under fixtures/ (default, each control alone, each late change): compiles, checks the
receipt's invariants, reperforms it (current) and a copy with one trace row edited and its id recomputed
(RECEIPT_MISMATCH), recompiles on a fresh database and with the records reversed (byte-identical
receipts required), and rehearses the fire drill (stale, then current after recompiling).
exit: 0 all checks passed · 1 a check failed`,
  options: {},
  positionals: noPositionals,
  async run(_line, io) {
    const results: CheckResult[] = [];
    for (const id of builtinScenarioIds()) {
      const loaded = await readScenarioFile(builtinScenarioPath(id));
      if (!loaded.ok) {
        io.stderr(renderError(loaded.error));
        results.push({ name: `${id}: loads`, passed: false, detail: loaded.error.message });
        continue;
      }
      const { scenario } = loaded.value;
      const add = (checked: readonly CheckResult[]) => {
        for (const result of checked) results.push(result);
      };
      add(await checkVariant(loaded.value, { controls: [], lateChanges: [] }, `${id}/default`));
      for (const control of scenario.controls) add(await checkVariant(loaded.value, { controls: [control.id], lateChanges: [] }, `${id}/${control.id}`));
      for (const change of scenario.lateChanges) {
        add(await checkVariant(loaded.value, { controls: [], lateChanges: [change.id] }, `${id}/${change.id}`));
        results.push(await checkDrill(loaded.value, change.id));
      }
    }
    for (const result of results) io.stdout(`${result.passed ? 'ok  ' : 'FAIL'} ${result.name}: ${result.detail}\n`);
    const failed = results.filter((result) => !result.passed).length;
    io.stdout(`${results.length - failed} passed, ${failed} failed\n`);
    return failed === 0 ? EXIT.ok : EXIT.invalid;
  },
});
