import type { Sha256 } from '../../core/fingerprints';
import { err, ok, type CompileError, type InputIssue, type Result } from '../../core/errors';
import {
  isSuiteDocument,
  parseExpectationSuiteJson,
  SUITE_SUFFIX,
  type LoadedSuite,
} from '../../core/expectations/suite';
import {
  describeRecognised,
  recogniseFileKind,
  type FileKind,
  type RecognisedKind,
} from '../../core/format/input-files';
import { invalidInput } from '../../core/format/input-issues';
import type { ExpectationSuite } from '../../core/format/expectation';
import { createJsonLocator, MAX_DOCUMENT_BYTES, quoteValue, type JsonLocator } from '../../core/format/json-text';
import {
  createJsonlRecordReader,
  joinScenarioRecords,
  parseContractJson,
  parseScenarioJson,
  type JsonlRecordReader,
  type LoadedScenario,
  type RecordSet,
} from '../../core/phases/1-validate/validate';
import { parseReceiptJson } from '../../core/phases/1-validate/validate-receipt';
import { USER_VIEW_FORMAT } from '../../core/format/user-view-export';
import { inputIssue } from '../../core/issues';
import { issuesOf } from '../../core/errors';
import type { Receipt } from '../../core/result';
import type { FileSummary, LoadProgress } from '../protocol';
import { nextTask } from '../next-task';
import { measuredAsync } from '../user-timing';
import { wordMessage } from '../../core/messages';

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

/**
 * Detects a file's kind from its content. A JSONL file is recognised from its first line, so it can be
 * streamed; anything else is a single JSON document and is read whole. A broken file is still recognised
 * from its field names, so that its errors can say what it was read as.
 */
export async function detectBlobKind(
  file: NamedBlob,
): Promise<{ recognised: RecognisedKind; text: string | null } | { recognised: null; head: string }> {
  const head = await file.blob.slice(0, HEAD_BYTES).text();
  const complete = file.blob.size <= HEAD_BYTES;
  const fromHead = recogniseFileKind(head, complete);
  if (fromHead?.kind === 'records') return { recognised: fromHead, text: null };
  if (complete) return fromHead === null ? { recognised: null, head } : { recognised: fromHead, text: head };
  // A document is read whole: past the limit it is refused before its text is held (records are streamed instead).
  if (file.blob.size > MAX_DOCUMENT_BYTES)
    return fromHead === null ? { recognised: null, head } : { recognised: fromHead, text: null };
  const text = await file.blob.text();
  const recognised = fromHead ?? recogniseFileKind(text);
  return recognised === null ? { recognised: null, head } : { recognised, text };
}

/** Why a file was not recognised, with what it starts with (escaped), so a wrong file is easy to spot. */
function unrecognised(file: string, head: string): InputIssue {
  const start = head
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 40);
  return inputIssue({ file, path: '(root)' }, 'NOT_RECOGNISED', { start: start === '' ? null : quoteValue(start) });
}

/** The app's user-view export: refused with its own message, since it looks like a receipt to a person. */
async function isUserViewExport(file: NamedBlob): Promise<boolean> {
  if (file.blob.size > HEAD_BYTES) return false;
  try {
    const value: unknown = JSON.parse(await file.blob.text());
    return typeof value === 'object' && value !== null && 'format' in value && value.format === USER_VIEW_FORMAT;
  } catch {
    return false;
  }
}

/**
 * An expectation suite, read and validated, when the file is one (by its name, or a small document by its shape);
 * null when it is some other kind of file. It opens in the Tests panel instead of becoming a scenario.
 */
async function suiteIn(file: NamedBlob): Promise<Result<IntakeSuite, CompileError> | null> {
  const named = file.name.toLowerCase().endsWith(SUITE_SUFFIX);
  if (!named && file.blob.size > HEAD_BYTES) return null;
  if (file.blob.size > MAX_DOCUMENT_BYTES) {
    return err(suiteTooLarge(file));
  }
  const text = await file.blob.text();
  if (!named) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return null;
    }
    if (!isSuiteDocument(file.name, value)) return null;
  }
  const parsed = parseExpectationSuiteJson(file.name, text);
  return parsed.ok ? ok({ loaded: parsed.value, text }) : parsed;
}

/**
 * A suite a scenario file carries (`suites`): its places are lines of that file, and its text is written out for links
 * and exports.
 */
function carriedSuite(file: string, locator: JsonLocator, index: number, suite: ExpectationSuite): IntakeSuite {
  const at = ['suites', index];
  return {
    loaded: {
      file: `${file}#suites[${index}]`,
      suite,
      locator: { lineOf: (path) => locator.lineOf([...at, ...path]) },
    },
    text: `${JSON.stringify(suite, null, 2)}\n`,
  };
}

/** Reads one records (JSONL) file into its validated records, reporting bytes read. */
export type RecordsFileReader = (
  sha256: Sha256,
  file: NamedBlob,
  onProgress: (progress: LoadProgress) => void,
  signal: AbortSignal,
) => Promise<Result<RecordSet, CompileError>>;

/**
 * Decodes a blob as UTF-8 a chunk at a time into the core's line reader, reporting the bytes read so far; never one big
 * string.
 */
export async function streamInto(
  reader: JsonlRecordReader,
  blob: Blob,
  onBytes: (bytesRead: number) => void,
  signal: AbortSignal,
): Promise<void> {
  let done = 0;
  const counted = blob.stream().pipeThrough(
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
      onBytes(done);
      // A chunk already queued resolves the read in a microtask: without a task between chunks, the messages
      // that came meanwhile (a cancel, a helper's progress, the start of the helper itself) would wait for the end.
      await nextTask();
    }
  } finally {
    if (signal.aborted) await text.cancel();
  }
}

/** Streams a JSONL file through the core's line reader in one pass. */
export const streamRecords: RecordsFileReader = async (sha256, file, onProgress, signal) => {
  const reader = createJsonlRecordReader(sha256, file.name);
  await streamInto(
    reader,
    file.blob,
    (done) => onProgress({ file: file.name, phase: 'reading', done, total: file.blob.size }),
    signal,
  );
  return reader.finish();
};

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
  /** Each records (JSONL) file's validated records, by file name: what the workspace database keeps. */
  readonly recordFiles: ReadonlyMap<string, RecordSet>;
  readonly receipts: readonly { readonly file: string; readonly receipt: Receipt }[];
  readonly kinds: readonly { readonly file: string; readonly kind: FileKind }[];
  /** The expectation suites of the drop, for the Tests panel: not inputs of any scenario. */
  readonly suites: readonly IntakeSuite[];
}

export interface IntakeSuite {
  readonly loaded: LoadedSuite;
  readonly text: string;
}

export interface IntakeRejection {
  readonly issues: readonly InputIssue[];
  /** One line per refused file: what it was recognised as, and how many problems it has. */
  readonly summaries: readonly FileSummary[];
}

/**
 * What the file was recognised as and what is wrong with it: "read as a contract (recognised by principals): not a
 * valid contract: 1 problem".
 */
function summaryOf(error: CompileError, file: string, recognised: RecognisedKind | string): FileSummary {
  const problems = error.message.startsWith(`${file}: `) ? error.message.slice(file.length + 2) : error.message;
  const described = typeof recognised === 'string' ? recognised : describeRecognised(recognised);
  return { file, message: wordMessage('READ_AS', { recognised: described, problems }) };
}

/** A suite over the size a document may have, refused before it is read. */
export function suiteTooLarge({ name, blob }: NamedBlob): CompileError {
  return invalidInput(
    name,
    [
      inputIssue({ file: name, path: '(root)' }, 'SUITE_TOO_LARGE', {
        megabytes: Math.round(blob.size / 2 ** 20),
        limit: MAX_DOCUMENT_BYTES / 2 ** 20,
      }),
    ],
    1,
    'expectation suite',
  );
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
  sha256: Sha256,
  files: readonly NamedBlob[],
  base: IntakeBase,
  onProgress: (progress: LoadProgress) => void,
  signal: AbortSignal,
  {
    stored = new Map(),
    readRecords = streamRecords,
  }: {
    /** Records files already validated once and kept in the workspace database, by name: not read again. */
    readonly stored?: ReadonlyMap<string, RecordSet>;
    readonly readRecords?: RecordsFileReader;
  } = {},
): Promise<Result<IntakeResult, IntakeRejection>> {
  const issues: InputIssue[] = [];
  const summaries: FileSummary[] = [];
  const refuse = (error: CompileError, file: string, recognised: RecognisedKind) => {
    summaries.push(summaryOf(error, file, recognised));
    for (const issue of issuesOf(error, { file, path: '(root)' })) issues.push(issue);
  };
  const kinds: { file: string; kind: FileKind }[] = [];
  const documents: { file: NamedBlob; recognised: RecognisedKind; text: string }[] = [];
  const recordFiles: { file: NamedBlob; recognised: RecognisedKind }[] = [];
  const suites: IntakeSuite[] = [];

  for (const file of files) {
    // Before detection: a user-view export carries a receipt's fingerprint fields, so it would pass for one.
    if (await isUserViewExport(file)) {
      summaries.push({ file: file.name, message: wordMessage('USER_VIEW_EXPORT_DROPPED') });
      issues.push(inputIssue({ file: file.name, path: 'format' }, 'USER_VIEW_NOT_RECEIPT'));
      continue;
    }
    const suite = await suiteIn(file);
    if (suite !== null) {
      if (suite.ok) suites.push(suite.value);
      else {
        summaries.push(summaryOf(suite.error, file.name, 'an expectation suite'));
        for (const issue of issuesOf(suite.error, { file: file.name, path: '(root)' })) issues.push(issue);
      }
      continue;
    }
    const kept = stored.get(file.name);
    if (kept) {
      kinds.push({ file: file.name, kind: 'records' });
      recordFiles.push({ file, recognised: { kind: 'records', by: [] } });
      continue;
    }
    const detected = await detectBlobKind(file);
    if (detected.recognised === null) {
      const issue = unrecognised(file.name, detected.head);
      summaries.push({ file: file.name, message: wordMessage('FILE_NOT_RECOGNISED') });
      issues.push(issue);
      continue;
    }
    if (detected.recognised.kind !== 'records' && detected.text === null) {
      summaries.push({
        file: file.name,
        message: wordMessage('READ_AS_TOO_LARGE', { recognised: describeRecognised(detected.recognised) }),
      });
      issues.push(
        inputIssue({ file: file.name, path: '(root)' }, 'DOCUMENT_TOO_LARGE', {
          megabytes: Math.round(file.blob.size / 2 ** 20),
          limit: MAX_DOCUMENT_BYTES / 2 ** 20,
        }),
      );
      continue;
    }
    kinds.push({ file: file.name, kind: detected.recognised.kind });
    if (detected.recognised.kind === 'records') recordFiles.push({ file, recognised: detected.recognised });
    else documents.push({ file, recognised: detected.recognised, text: detected.text ?? '' });
  }

  const recordSets = new Map<string, RecordSet>();
  for (const { file, recognised } of recordFiles) {
    const kept = stored.get(file.name);
    if (kept) {
      recordSets.set(file.name, kept);
      continue;
    }
    // A worker-side marker as well as a duration: the reload test asserts that no records file was read.
    const parsed = await measuredAsync('cc:read-records', () => readRecords(sha256, file, onProgress, signal));
    if (parsed.ok) recordSets.set(file.name, parsed.value);
    else refuse(parsed.error, file.name, recognised);
  }

  const entries: IntakeEntry[] = [];
  const receipts: { file: string; receipt: Receipt }[] = [];
  const claimed = new Set<string>();
  const contracts: IntakeEntry[] = [];

  for (const { file, recognised, text } of documents) {
    const kind = recognised.kind;
    if (kind === 'scenario') {
      // The scenario's JSONL sibling was streamed above; the core only needs to know it was supplied. A supplied
      // sibling with errors has reported them already: the scenario is not loaded, and is not called orphaned.
      const parsed = parseScenarioJson(sha256, file.name, text, (name) =>
        recordFiles.some((supplied) => supplied.file.name === name) ? '' : null,
      );
      if (!parsed.ok) {
        refuse(parsed.error, file.name, recognised);
        continue;
      }
      const sibling = typeof parsed.value.scenario.records === 'string' ? parsed.value.scenario.records : null;
      if (sibling !== null) claimed.add(sibling);
      const recordSet = sibling === null ? parsed.value.recordSet : recordSets.get(sibling);
      if (!recordSet) continue;
      // The records were streamed apart from the scenario: what its texts name is checked against them here.
      const checked =
        sibling === null ? parsed : joinScenarioRecords(file.name, text, parsed.value.scenario, recordSet);
      if (!checked.ok) {
        refuse(checked.error, file.name, recognised);
        continue;
      }
      entries.push({ key: keyFor(parsed.value.scenario.id), loaded: checked.value });
      const locator = createJsonLocator(text);
      checked.value.scenario.suites?.forEach((suite, index) =>
        suites.push(carriedSuite(file.name, locator, index, suite)),
      );
    } else if (kind === 'contract') {
      const parsed = parseContractJson(file.name, text);
      if (!parsed.ok) refuse(parsed.error, file.name, recognised);
      else
        contracts.push({
          key: keyFor(file.name),
          loaded: {
            scenario: {
              ...base.loaded.scenario,
              id: file.name,
              title: parsed.value.task,
              description: `Contract ${file.name} against the records of ${base.loaded.scenario.title}.`,
              contract: parsed.value,
            },
            recordSet: base.loaded.recordSet,
          },
        });
    } else {
      const parsed = parseReceiptJson(file.name, text);
      if (!parsed.ok) refuse(parsed.error, file.name, recognised);
      else receipts.push({ file: file.name, receipt: parsed.value });
    }
  }

  const loose = recordFiles
    .map(({ file }) => file)
    .filter((file) => !claimed.has(file.name) && recordSets.has(file.name));
  if (loose.length > 1 || contracts.length > 1) {
    issues.push(
      inputIssue(
        {
          file: [...loose, ...contracts].map((item) => ('name' in item ? item.name : item.key)).join(', '),
          path: '(root)',
        },
        'ONE_RECORDS_AND_CONTRACT',
      ),
    );
  }
  if (issues.length > 0) return err({ issues, summaries });

  const looseFile = loose[0];
  const looseRecords = looseFile ? recordSets.get(looseFile.name) : undefined;
  const contract = contracts[0];
  if (looseFile && looseRecords) {
    const owner = contract ? contract.loaded.scenario : base.loaded.scenario;
    // New records make the base scenario's controls meaningless: they patch records by id.
    entries.push({
      key: keyFor(looseFile.name),
      loaded: {
        scenario: {
          ...owner,
          id: looseFile.name,
          title: `${owner.contract.task} · ${looseFile.name}`,
          description: `Records ${looseFile.name}${contract ? ` under contract ${contract.key.slice('loaded:'.length)}` : ` under the contract of ${base.loaded.scenario.title}`}.`,
          records: looseFile.name,
          controls: [],
          lateChanges: [],
        },
        recordSet: looseRecords,
      },
    });
  } else if (contract) {
    entries.push(contract);
  }
  return ok({ entries, recordFiles: recordSets, receipts, kinds, suites });
}
