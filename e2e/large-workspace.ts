import { benchContract, benchControl, generateRecords, toJsonl } from '../bench/generate-records';
import { compilerWorker } from './compiler-worker';
import type { AppPage, FilePayload } from './fixtures';

/** A generated workspace (a scenario naming its records file, with one control), as files to drop. */
export function largeWorkspace(size: number, id: string): { files: FilePayload[]; control: string } {
  const corpus = generateRecords(size, 7);
  const target = corpus.records.find((record, index) => index > 0 && !corpus.requiredIds.includes(record.id))?.id ?? '';
  const control = benchControl(target);
  const recordsName = `${id}.jsonl`;
  const scenario = {
    id,
    title: `E2E: ${size} generated records`,
    description: 'generated',
    contract: benchContract(corpus.requiredIds),
    records: recordsName,
    controls: [control],
    lateChanges: [],
  };
  return {
    files: [
      { name: `${id}.scenario.json`, mimeType: 'application/json', text: JSON.stringify(scenario) },
      { name: recordsName, mimeType: 'application/jsonl', text: toJsonl(corpus.records) },
    ],
    control: control.label,
  };
}

/**
 * Worker-side User Timing: how many times the worker did `name` (e.g. `cc:index`, indexing a drop), not how long it
 * took.
 */
export async function workerMeasureCount(app: AppPage, name: string): Promise<number> {
  const worker = await compilerWorker(app.page);
  return worker.evaluate((measure) => performance.getEntriesByName(measure).length, name);
}
