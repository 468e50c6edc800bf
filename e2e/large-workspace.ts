import { benchContract, benchControl, generateRecords, toJsonl } from '../bench/generate-records';
import type { Worker } from '@playwright/test';
import { expect, type ContextDebugger, type FilePayload } from './fixtures';

/** A generated workspace (a scenario naming its records file, with one control), as files to drop. */
export function largeWorkspace(size: number, id: string): { files: FilePayload[]; control: string } {
  const corpus = generateRecords(size, 7);
  const target = corpus.records.find((record, index) => index > 0 && !corpus.requiredIds.includes(record.id))?.id ?? '';
  const control = benchControl(target);
  const recordsName = `${id}.jsonl`;
  const scenario = { id, title: `E2E: ${size} generated records`, description: 'generated', contract: benchContract(corpus.requiredIds), records: recordsName, controls: [control], lateChanges: [] };
  return {
    files: [
      { name: `${id}.scenario.json`, mimeType: 'application/json', text: JSON.stringify(scenario) },
      { name: recordsName, mimeType: 'application/jsonl', text: toJsonl(corpus.records) },
    ],
    control: control.label,
  };
}

/** Worker-side User Timing: how many times the worker did `name` (e.g. `cc:index`, indexing a drop), not how long it took. */
export async function workerMeasureCount(app: ContextDebugger, name: string): Promise<number> {
  const worker = await compilerWorker(app);
  return worker.evaluate((measure) => performance.getEntriesByName(measure).length, name);
}

/** The compiler worker the page talks to now (it starts from a blob: URL, so the newest worker, as in faults.spec.ts). */
export async function compilerWorker(app: ContextDebugger): Promise<Worker> {
  await expect.poll(() => app.page.workers().length).toBeGreaterThan(0);
  const worker = app.page.workers().at(-1);
  if (!worker) throw new Error('the compiler worker is not running');
  return worker;
}
