import type { CompileError, Result } from '../core/errors';
import { parseScenarioJson, type LoadedScenario } from '../core/passes/validate';

/** The default scenario first, then the other shipped ones in a fixed order, then any others by id. */
export const BUILTIN_ORDER = ['retry-policy', 'atlas-credit-review', 'refund-desk'] as const;

const scenarioTexts = import.meta.glob<string>('../../fixtures/*/scenario.json', { query: '?raw', import: 'default', eager: true });
const recordTexts = import.meta.glob<string>('../../fixtures/*/*.jsonl', { query: '?raw', import: 'default', eager: true });

export interface BuiltinScenario {
  readonly folder: string;
  readonly result: Result<LoadedScenario, CompileError>;
}

function folderOf(path: string): string {
  const parts = path.split('/');
  return parts[parts.length - 2] ?? path;
}

function rankOf(folder: string): number {
  const index = (BUILTIN_ORDER as readonly string[]).indexOf(folder);
  return index === -1 ? BUILTIN_ORDER.length : index;
}

/** Parses the scenarios bundled with the app, each with the JSONL file beside it. */
export function readBuiltinScenarios(): BuiltinScenario[] {
  return Object.entries(scenarioTexts)
    .map(([path, text]) => {
      const folder = folderOf(path);
      const prefix = path.slice(0, path.length - 'scenario.json'.length);
      return { folder, result: parseScenarioJson(`fixtures/${folder}/scenario.json`, text, (name) => recordTexts[`${prefix}${name}`] ?? null) };
    })
    .sort((a, b) => rankOf(a.folder) - rankOf(b.folder) || a.folder.localeCompare(b.folder));
}
