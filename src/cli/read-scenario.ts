import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CompileError, Result } from '../core/errors';
import { joinScenarioRecords, parseScenarioJson, type LoadedScenario } from '../core/phases/1-validate/validate';
import { readDocument, streamRecordsFile } from './read-file';

/** Reads a scenario file from disk; a records file it names is streamed from the same folder. */
export async function readScenarioFile(path: string, display = path): Promise<Result<LoadedScenario, CompileError>> {
  const text = await readDocument(path, display);
  if (!text.ok) return text;
  const folder = dirname(path);
  let sibling: { path: string; name: string } | null = null;
  // The core only needs to know the sibling exists; its records are streamed below, never held as one string.
  const parsed = parseScenarioJson(display, text.value, (name) => {
    const candidate = join(folder, basename(name));
    if (!existsSync(candidate)) return null;
    sibling = { path: candidate, name };
    return '';
  });
  if (!parsed.ok || sibling === null) return parsed;
  const { path: siblingPath, name } = sibling;
  const records = await streamRecordsFile(siblingPath, name);
  return records.ok ? joinScenarioRecords(display, text.value, parsed.value.scenario, records.value) : records;
}
