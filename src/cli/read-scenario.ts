import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ok, type CompileError, type Result } from '../core/errors';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import type { ScenarioInputs } from '../lib/api';
import { library } from './library';
import { readDocument, readingFiles, recordsFileChunks } from './read-file';

/** A scenario file's text as the library reads it, with the records file it names streamed from the same folder. */
export async function scenarioFileInputs(path: string, display = path): Promise<Result<ScenarioInputs, CompileError>> {
  const text = await readDocument(path, display);
  if (!text.ok) return text;
  const folder = dirname(path);
  const files = (name: string) => {
    const candidate = join(folder, basename(name));
    return existsSync(candidate) ? recordsFileChunks(candidate, name).chunks : null;
  };
  return ok({ scenario: text.value, scenarioFile: display, files });
}

/** Reads a scenario file from disk through the library; a records file it names is streamed from the same folder. */
export async function readScenarioFile(path: string, display = path): Promise<Result<LoadedScenario, CompileError>> {
  const file = await scenarioFileInputs(path, display);
  return file.ok ? readingFiles(async () => library.readScenario(file.value)) : file;
}
