import { sha256 } from '../core/test-support/sha256';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readScenarioFile } from '../cli/read-scenario';
import { contentHashOf } from '../core/fingerprints';
import { BUILTIN_SCENARIOS, builtinScenarioPath, DEFAULT_SCENARIO_ID, isBuiltinScenarioId } from './builtin';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** RUN-0866 was edited after it was hashed: it is the provenance gate's example. */
const DELIBERATELY_UNVERIFIED: Record<string, string[]> = {
  'retry-policy': ['RUN-0866'],
  'atlas-credit-review': [],
  'refund-desk': [],
};

describe('built-in scenarios', () => {
  it('opens retry-policy by default', () => {
    expect(DEFAULT_SCENARIO_ID).toBe('retry-policy');
    expect(BUILTIN_SCENARIOS[0].id).toBe(DEFAULT_SCENARIO_ID);
  });

  it('has unique ids', () => {
    const ids = BUILTIN_SCENARIOS.map((scenario) => scenario.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(BUILTIN_SCENARIOS)('$id names a fixture with the same id and title', async (entry) => {
    const loaded = await readScenarioFile(`${repoRoot}${builtinScenarioPath(entry.id)}`);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.scenario.id).toBe(entry.id);
    expect(loaded.value.scenario.title).toBe(entry.title);
  });

  it.each(BUILTIN_SCENARIOS)(
    '$id: every content hash matches its text, except where a record breaks provenance on purpose',
    async (entry) => {
      const loaded = await readScenarioFile(`${repoRoot}${builtinScenarioPath(entry.id)}`);
      if (!loaded.ok) throw new Error(loaded.error.message);
      const { scenario, recordSet } = loaded.value;
      const added = [...scenario.controls, ...scenario.lateChanges].flatMap((change) =>
        change.patches.flatMap((patch) => (patch.op === 'addRecord' ? [patch.record] : [])),
      );
      const unverified = [...recordSet.records, ...added]
        .filter((record) => record.provenance?.contentHash !== contentHashOf(sha256, record.text))
        .map((record) => record.id);
      expect(unverified).toEqual(DELIBERATELY_UNVERIFIED[entry.id]);
    },
  );

  it('recognises only listed ids', () => {
    expect(isBuiltinScenarioId('refund-desk')).toBe(true);
    expect(isBuiltinScenarioId('fixtures/refund-desk')).toBe(false);
  });
});
