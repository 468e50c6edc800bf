import { err, ok, type CompileError, type InputIssue, type Result } from '../core/errors';
import { createJsonlRecordReader, detectFileKind, parseContractJson, parseReceiptJson, parseScenarioJson, type FileKind, type LoadedScenario, type RecordSet } from '../core/passes/validate';
import type { Receipt } from '../core/result';
import type { LoadProgress } from './protocol';

export interface NamedBlob {
  readonly name: string;
  readonly blob: Blob;
}

/** Enough of the head to see the first JSONL line of any sane record, without reading a large file. */
const HEAD_BYTES = 256 * 1024;

export class LoadCancelled extends Error {
  constructor() {
    super('load cancelled');
  }
}

function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return newline === -1 ? text : text.slice(0, newline);
}

/**
 * Detects a file's kind from its content. A JSONL file is recognised from its first line, so it can be
 * streamed; anything else is a single JSON document and is read whole (contracts and scenarios are small).
 */
export async function detectBlobKind(file: NamedBlob): Promise<{ kind: FileKind; text: string | null } | null> {
  const head = await file.blob.slice(0, HEAD_BYTES).text();
  if (detectFileKind(firstLine(head)) === 'records') return { kind: 'records', text: null };
  const text = file.blob.size <= HEAD_BYTES ? head : await file.blob.text();
  const kind = detectFileKind(text);
  return kind === null ? null : { kind, text };
}

/** Streams a JSONL file through the core's line reader, reporting bytes read; never one big string. */
export async function streamRecords(
  file: NamedBlob,
  onProgress: (progress: LoadProgress) => void,
  signal: AbortSignal,
): Promise<Result<RecordSet, CompileError>> {
  const reader = createJsonlRecordReader(file.name);
  const total = file.blob.size;
  let done = 0;
  const counted = file.blob.stream().pipeThrough(
    new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
      transform(chunk, controller) {
        done += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  const text = counted.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      if (signal.aborted) throw new LoadCancelled();
      const { value, done: finished } = await text.read();
      if (finished) break;
      reader.push(value);
      onProgress({ file: file.name, phase: 'reading', done, total });
    }
  } finally {
    if (signal.aborted) await text.cancel();
  }
  return reader.finish();
}

export interface IntakeBase {
  readonly key: string;
  readonly loaded: LoadedScenario;
}

export interface IntakeEntry {
  readonly key: string;
  readonly loaded: LoadedScenario;
}

export interface IntakeResult {
  readonly entries: readonly IntakeEntry[];
  readonly receipts: readonly { readonly file: string; readonly receipt: Receipt }[];
  readonly kinds: readonly { readonly file: string; readonly kind: FileKind }[];
}

function issuesOf(error: CompileError, file: string): InputIssue[] {
  return error.issues && error.issues.length > 0 ? [...error.issues] : [{ file, path: '(root)', message: error.message }];
}

const keyFor = (id: string) => `loaded:${id}`;

/**
 * Reads one drop of files into new scenarios (and receipts to check), all or nothing: when any file is
 * invalid the result lists every problem and the caller keeps what it had.
 *
 * A scenario brings its own records (inline, or a JSONL file dropped with it). A lone contract runs
 * against the base scenario's records; a lone records file runs under the base scenario's contract.
 */
export async function intakeFiles(
  files: readonly NamedBlob[],
  base: IntakeBase,
  onProgress: (progress: LoadProgress) => void,
  signal: AbortSignal,
): Promise<Result<IntakeResult, InputIssue[]>> {
  const issues: InputIssue[] = [];
  const kinds: { file: string; kind: FileKind }[] = [];
  const documents: { file: NamedBlob; kind: Exclude<FileKind, 'records'>; text: string }[] = [];
  const recordFiles: NamedBlob[] = [];

  for (const file of files) {
    const detected = await detectBlobKind(file);
    if (detected === null) {
      issues.push({ file: file.name, path: '(root)', message: 'not a records JSONL file, contract, scenario or receipt (detected from its content)' });
      continue;
    }
    kinds.push({ file: file.name, kind: detected.kind });
    if (detected.kind === 'records') recordFiles.push(file);
    else documents.push({ file, kind: detected.kind, text: detected.text ?? '' });
  }

  const recordSets = new Map<string, RecordSet>();
  for (const file of recordFiles) {
    const parsed = await streamRecords(file, onProgress, signal);
    if (parsed.ok) recordSets.set(file.name, parsed.value);
    else issues.push(...issuesOf(parsed.error, file.name));
  }

  const entries: IntakeEntry[] = [];
  const receipts: { file: string; receipt: Receipt }[] = [];
  const claimed = new Set<string>();
  const contracts: IntakeEntry[] = [];

  for (const { file, kind, text } of documents) {
    if (kind === 'scenario') {
      // The scenario's JSONL sibling was streamed above; the core only needs to know it was supplied.
      const parsed = parseScenarioJson(file.name, text, (name) => (recordSets.has(name) ? '' : null));
      if (!parsed.ok) {
        issues.push(...issuesOf(parsed.error, file.name));
        continue;
      }
      const sibling = typeof parsed.value.scenario.records === 'string' ? parsed.value.scenario.records : null;
      if (sibling !== null) claimed.add(sibling);
      const recordSet = sibling === null ? parsed.value.recordSet : recordSets.get(sibling);
      if (recordSet) entries.push({ key: keyFor(parsed.value.scenario.id), loaded: { scenario: parsed.value.scenario, recordSet } });
    } else if (kind === 'contract') {
      const parsed = parseContractJson(file.name, text);
      if (!parsed.ok) issues.push(...issuesOf(parsed.error, file.name));
      else contracts.push({ key: keyFor(file.name), loaded: { scenario: { ...base.loaded.scenario, id: file.name, title: parsed.value.task, description: `Contract ${file.name} against the records of ${base.loaded.scenario.title}.`, contract: parsed.value }, recordSet: base.loaded.recordSet } });
    } else {
      const parsed = parseReceiptJson(file.name, text);
      if (!parsed.ok) issues.push(...issuesOf(parsed.error, file.name));
      else receipts.push({ file: file.name, receipt: parsed.value });
    }
  }

  const loose = recordFiles.filter((file) => !claimed.has(file.name) && recordSets.has(file.name));
  if (loose.length > 1 || contracts.length > 1) {
    issues.push({ file: [...loose, ...contracts].map((item) => ('name' in item ? item.name : item.key)).join(', '), path: '(root)', message: 'drop at most one records file and one contract at a time, or a scenario that names its records file' });
  }
  if (issues.length > 0) return err(issues);

  const looseFile = loose[0];
  const looseRecords = looseFile ? recordSets.get(looseFile.name) : undefined;
  const contract = contracts[0];
  if (looseFile && looseRecords) {
    const owner = contract ? contract.loaded.scenario : base.loaded.scenario;
    // New records make the base scenario's controls meaningless: they patch records by id.
    entries.push({
      key: keyFor(looseFile.name),
      loaded: {
        scenario: { ...owner, id: looseFile.name, title: `${owner.contract.task} · ${looseFile.name}`, description: `Records ${looseFile.name}${contract ? ` under contract ${contract.key.slice('loaded:'.length)}` : ` under the contract of ${base.loaded.scenario.title}`}.`, records: looseFile.name, controls: [], lateChanges: [] },
        recordSet: looseRecords,
      },
    });
  } else if (contract) {
    entries.push(contract);
  }
  return ok({ entries, receipts, kinds });
}
