import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { err, ok, type CompileError, type Result } from '../core/errors';
import type { LoadedScenario } from '../core/passes/validate';
import type { ScenarioInputs } from '../lib/api';
import { library } from './library';
import { readDocument, recordsFileSource, type RecordsFileSource } from './read-file';

/** A scenario file's text as the library reads it, with the records file it names streamed from the same folder. */
export async function scenarioFileInputs(path: string, display = path): Promise<Result<{ inputs: ScenarioInputs; sibling: () => RecordsFileSource | null }, CompileError>> {
  const text = await readDocument(path, display);
  if (!text.ok) return text;
  const folder = dirname(path);
  let sibling: RecordsFileSource | null = null;
  const files = (name: string) => {
    const candidate = join(folder, basename(name));
    if (!existsSync(candidate)) return null;
    sibling = recordsFileSource(candidate, name);
    return sibling.chunks;
  };
  return ok({ inputs: { scenario: text.value, scenarioFile: display, files }, sibling: () => sibling });
}

/** Reads a scenario file from disk through the library; a records file it names is streamed from the same folder. */
export async function readScenarioFile(path: string, display = path): Promise<Result<LoadedScenario, CompileError>> {
  const file = await scenarioFileInputs(path, display);
  if (!file.ok) return file;
  const loaded = await library.readScenario(file.value.inputs);
  const failed = file.value.sibling()?.failure() ?? null;
  return failed === null ? loaded : err(failed);
}
