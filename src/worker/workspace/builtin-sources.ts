import type { Sha256 } from '../../core/fingerprints';
import type { CompileError, Result } from '../../core/errors';
import { parseScenarioJson, type LoadedScenario } from '../../core/phases/1-validate/validate';
import { BUILTIN_SCENARIOS } from '../../scenarios/builtin';

// Glob patterns must be literals; the test checks they name exactly BUILTIN_SCENARIOS.
const scenarioTexts = import.meta.glob<string>(
  '../../../fixtures/{retry-policy,atlas-credit-review,refund-desk}/scenario.json',
  { query: '?raw', import: 'default', eager: true },
);
const recordTexts = import.meta.glob<string>(
  '../../../fixtures/{retry-policy,atlas-credit-review,refund-desk}/*.jsonl',
  { query: '?raw', import: 'default', eager: true },
);

export interface BuiltinScenario {
  readonly folder: string;
  readonly result: Result<LoadedScenario, CompileError>;
}

function folderOf(path: string): string {
  const parts = path.split('/');
  return parts[parts.length - 2] ?? path;
}

function rankOf(folder: string): number {
  return BUILTIN_SCENARIOS.findIndex((scenario) => scenario.id === folder);
}

/** Parses the scenarios bundled with the app, each with the JSONL file beside it, in display order. */
export function readBuiltinScenarios(sha256: Sha256): BuiltinScenario[] {
  return Object.entries(scenarioTexts)
    .map(([path, text]) => {
      const folder = folderOf(path);
      const prefix = path.slice(0, path.length - 'scenario.json'.length);
      return {
        folder,
        result: parseScenarioJson(
          sha256,
          `fixtures/${folder}/scenario.json`,
          text,
          (name) => recordTexts[`${prefix}${name}`] ?? null,
        ),
      };
    })
    .sort((a, b) => rankOf(a.folder) - rankOf(b.folder));
}
