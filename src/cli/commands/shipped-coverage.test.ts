import { sha256InNode } from '../../lib/node-sha256';
import { describe, expect, it } from 'vitest';
import { createSqliteCompiler } from '../../adapters/sqlite/compiler';
import { drill } from '../../core/drill';
import { freshDriver } from '../../core/test-support/node-driver';
import { prepareScenario } from '../../core/compile';
import { readBuiltinScenarios } from '../../worker/workspace/builtin-sources';
import { main } from '../main';

/**
 * Every set of at most two controls, each with no late change or one (what a case can switch on, short of a matrix).
 */
function switchSets(controls: readonly string[], lateChanges: readonly string[]) {
  const sets: string[][] = [[]];
  controls.forEach((first, at) => {
    sets.push([first]);
    for (const second of controls.slice(at + 1)) sets.push([first, second]);
  });
  return sets.flatMap((set) =>
    [[], ...lateChanges.map((change) => [change])].map((late) => ({ controls: set, lateChanges: late })),
  );
}

/** The reason codes the built-in scenarios produce: every trace row, refusal and drill verdict under those switches. */
async function producedCodes(): Promise<Set<string>> {
  const compiler = createSqliteCompiler(sha256InNode, await freshDriver());
  const codes = new Set<string>();
  for (const { result } of readBuiltinScenarios(sha256InNode)) {
    if (!result.ok) throw new Error(result.error.message);
    const loaded = result.value;
    const declared = loaded.scenario.lateChanges.map((change) => change.id);
    for (const selection of switchSets(
      loaded.scenario.controls.map((control) => control.id),
      declared,
    )) {
      const request = prepareScenario(sha256InNode, loaded, selection);
      if (!request.ok) {
        codes.add(request.error.code);
        continue;
      }
      const compiled = await compiler.compile(request.value);
      if (!compiled.ok) {
        codes.add(compiled.error.code);
        continue;
      }
      for (const row of compiled.value.receipt.trace) codes.add(row.code);
      if (compiled.value.status === 'fail_closed') codes.add(compiled.value.failure.code);
      for (const change of declared.filter((id) => !selection.lateChanges.includes(id))) {
        const current = prepareScenario(sha256InNode, loaded, {
          ...selection,
          lateChanges: [...selection.lateChanges, change],
        });
        if (!current.ok) continue;
        codes.add(
          (
            await drill(compiler, {
              ...current.value,
              priorReceipt: compiled.value.receipt,
              declaredChanges: [change],
              declaredInputs: request.value,
            })
          ).code,
        );
        const recompiled = await compiler.compile(current.value);
        if (recompiled.ok)
          codes.add(
            (
              await drill(compiler, {
                ...current.value,
                priorReceipt: recompiled.value.receipt,
                declaredChanges: [change],
              })
            ).code,
          );
      }
    }
  }
  return codes;
}

describe('the shipped suites', () => {
  it('reach every reason code the built-in scenarios produce, so coverage of a built-in exercise is never short by one the product can show', async () => {
    let stdout = '';
    const code = await main(['test', '--coverage', '--json'], {
      stdout: (text) => (stdout += text),
      stderr: () => undefined,
      cwd: process.cwd(),
    });
    expect(code).toBe(0);
    const { coverage } = JSON.parse(stdout) as { coverage: { codes: { reached: string[] } } };
    const produced = await producedCodes();
    expect(produced.size).toBeGreaterThan(20);
    expect([...produced].filter((reason) => !coverage.codes.reached.includes(reason)).sort()).toEqual([]);
  }, 60_000);
});
