import type { Sha256 } from '../core/fingerprints';
import type { CompileError, Result } from '../core/errors';
import { parseScenarioJson, type LoadedScenario } from '../core/phases/1-validate/validate';
import seed000Scenario from '../../fixtures/seed000-contaminated/scenario.json?raw';
import seed000Records from '../../fixtures/seed000-contaminated/records.jsonl?raw';
import foundationQueries from '../../fixtures/retrieval-foundation/queries.jsonl?raw';
import foundationRecords from '../../fixtures/retrieval-foundation/records.jsonl?raw';

/** Seed 000's corpus as bundled with the app; the scenario names its records file, which must be this one. */
export function readSeed000(sha256: Sha256): Result<LoadedScenario, CompileError> {
  return parseScenarioJson(sha256, 'fixtures/seed000-contaminated/scenario.json', seed000Scenario, (name) =>
    name === 'records.jsonl' ? seed000Records : null,
  );
}

export function readFoundationTexts(): { readonly records: string; readonly queries: string } {
  return { records: foundationRecords, queries: foundationQueries };
}
