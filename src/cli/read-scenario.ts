import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CompileError, Result } from '../core/errors';
import { parseScenarioJson, type LoadedScenario } from '../core/passes/validate';

/** Reads a scenario file from disk; a records file it names is read from the same folder. */
export function readScenarioFile(path: string): Result<LoadedScenario, CompileError> {
  const folder = dirname(path);
  return parseScenarioJson(path, readFileSync(path, 'utf8'), (name) => {
    const sibling = join(folder, basename(name));
    return existsSync(sibling) ? readFileSync(sibling, 'utf8') : null;
  });
}
