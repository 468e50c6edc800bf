import type { Sha256 } from '../core/fingerprints';
import { receiptIntegrity } from '../core/drill';
import { compileError, err, ok, type CompileError, type Result } from '../core/errors';
import { parseExpectationSuiteJson, type LoadedSuite } from '../core/expectations/suite';
import { placeContractIssues } from '../core/format/input-issues';
import {
  createJsonlRecordReader,
  joinScenarioRecords,
  parseContractJson,
  parseScenarioJson,
  validateContract,
  type LoadedScenario,
  type RecordSet,
} from '../core/phases/1-validate/validate';
import { parseReceiptJson } from '../core/phases/1-validate/validate-receipt';
import { inputIssue } from '../core/issues';
import type { Receipt } from '../core/result';
import { staleEngineDetail } from '../core/version';
import { prepareScenario, type CompileRequest } from '../core/compile';

/**
 * Records as JSONL text, an array of record values, JSONL text arriving in chunks (a file streamed, never held
 * as one string), or a record set `readRecords` already read.
 */
export type RecordsSource = string | readonly unknown[] | AsyncIterable<string> | RecordSet;

/** A contract and its records; the file names are how problems name them (default contract.json, records.jsonl). */
export interface Inputs {
  readonly contract: string | object;
  readonly records: RecordsSource;
  readonly contractFile?: string;
  readonly recordsFile?: string;
}

/** A scenario with the controls and late changes to apply (by id). */
export interface ScenarioInputs {
  /** The scenario file's text or value, or a scenario `readScenario` already read. */
  readonly scenario: string | object | LoadedScenario;
  /** How problems name the scenario file (default scenario.json). */
  readonly scenarioFile?: string;
  /** The records file the scenario names in "records" (by that name), when its records are not inline. */
  readonly files?: Readonly<Record<string, RecordsSource>> | ((name: string) => RecordsSource | null);
  readonly controls?: readonly string[];
  readonly lateChanges?: readonly string[];
}

/** Names the contract's file, line and path in a compile error that only says "contract" (type-checking). */
export type PlaceIssues = (error: CompileError) => CompileError;

/**
 * Inputs read and validated: the compile request, the scenario it came from (if any), and how to place a contract
 * issue.
 */
export interface ReadInputs {
  readonly request: CompileRequest;
  readonly scenario: LoadedScenario | null;
  readonly place: PlaceIssues;
}

const asText = (value: string | object): string => (typeof value === 'string' ? value : JSON.stringify(value));

const isRecordSet = (source: RecordsSource): source is RecordSet =>
  typeof source === 'object' && !Array.isArray(source) && 'byId' in source;

const isChunks = (source: RecordsSource): source is AsyncIterable<string> =>
  typeof source === 'object' && Symbol.asyncIterator in source;

const isLoadedScenario = (scenario: ScenarioInputs['scenario']): scenario is LoadedScenario =>
  typeof scenario === 'object' && 'recordSet' in scenario && 'scenario' in scenario;

/**
 * Reads records with the record schema, line by line: a line that cannot be read is kept out, in `unreadable`, with its
 * file, line and field.
 */
export async function readRecords(
  sha256: Sha256,
  records: RecordsSource,
  file = 'records.jsonl',
): Promise<Result<RecordSet, CompileError>> {
  if (isRecordSet(records)) return ok(records);
  const reader = createJsonlRecordReader(sha256, file);
  if (typeof records === 'string') reader.push(records);
  else if (isChunks(records)) for await (const chunk of records) reader.push(chunk);
  else reader.push(records.map((record) => JSON.stringify(record)).join('\n'));
  return reader.finish();
}

function readContract(contract: string | object, file = 'contract.json') {
  return typeof contract === 'string' ? parseContractJson(file, contract) : validateContract(file, contract);
}

const fileOf = (files: ScenarioInputs['files'], name: string): RecordsSource | null =>
  typeof files === 'function' ? files(name) : (files?.[name] ?? null);

/** Reads a scenario; a records file it names is read from `files` (streamed when it is given in chunks). */
export async function readScenario(
  sha256: Sha256,
  inputs: Pick<ScenarioInputs, 'scenario' | 'scenarioFile' | 'files'>,
): Promise<Result<LoadedScenario, CompileError>> {
  if (isLoadedScenario(inputs.scenario)) return ok(inputs.scenario);
  const file = inputs.scenarioFile ?? 'scenario.json';
  const text = asText(inputs.scenario);
  let named: { source: RecordsSource; name: string } | null = null;
  // The parser only needs to know the records file exists; its records are read below, never held as one string.
  const parsed = parseScenarioJson(sha256, file, text, (name) => {
    const source = fileOf(inputs.files, name);
    if (source === null) return null;
    named = { source, name };
    return '';
  });
  if (!parsed.ok || named === null) return parsed;
  const { source, name } = named;
  const records = await readRecords(sha256, source, name);
  return records.ok ? joinScenarioRecords(file, text, parsed.value.scenario, records.value) : records;
}

/**
 * A contract and records, or a scenario with its switches, read into a compile request with the CLI's schemas and
 * errors.
 */
export async function readInputs(
  sha256: Sha256,
  inputs: Inputs | ScenarioInputs,
): Promise<Result<ReadInputs, CompileError>> {
  if ('scenario' in inputs) {
    const loaded = await readScenario(sha256, inputs);
    if (!loaded.ok) return loaded;
    const selection = { controls: inputs.controls ?? [], lateChanges: inputs.lateChanges ?? [] };
    const request = prepareScenario(sha256, loaded.value, selection);
    if (!request.ok) return request;
    // A control or late change may have patched the contract, and then the file's lines are not the contract compiled.
    const patched = selection.controls.length > 0 || selection.lateChanges.length > 0;
    const { scenario } = inputs;
    const place: PlaceIssues = (error) =>
      patched || typeof scenario !== 'string'
        ? error
        : placeContractIssues(error, inputs.scenarioFile ?? 'scenario.json', scenario, ['contract']);
    return ok({ request: request.value, scenario: loaded.value, place });
  }
  const contractFile = inputs.contractFile ?? 'contract.json';
  // Records before the contract, as the CLI has always read them: the first problem reported is the same.
  const recordSet = await readRecords(sha256, inputs.records, inputs.recordsFile);
  if (!recordSet.ok) return recordSet;
  const contract = readContract(inputs.contract, contractFile);
  if (!contract.ok) return contract;
  const contractText = asText(inputs.contract);
  return ok({
    request: { contract: contract.value, recordSet: recordSet.value },
    scenario: null,
    place: (error) => placeContractIssues(error, contractFile, contractText),
  });
}

/**
 * Reads a receipt with the receipt schema; a receipt of another schema is refused as STALE_ENGINE_VERSION before its
 * fields are read.
 */
export function readReceipt(receipt: string | object, file = 'receipt.json'): Result<Receipt, CompileError> {
  return parseReceiptJson(file, asText(receipt));
}

/**
 * Reads a receipt and checks it as the receipt check does: its schema and engine version, and that it hashes to its own
 * id.
 */
export function readCheckedReceipt(
  sha256: Sha256,
  receipt: string | object,
  file = 'receipt.json',
): Result<Receipt, CompileError> {
  const read = readReceipt(receipt, file);
  if (!read.ok) return read;
  const unusable = receiptIntegrity(sha256, read.value);
  if (unusable === null) return read;
  const issue =
    unusable.code === 'RECEIPT_INVALID'
      ? inputIssue({ file, path: 'receiptId' }, 'RECEIPT_ID_MISMATCH')
      : inputIssue({ file, path: 'engineVersion' }, 'RECEIPT_ENGINE', { detail: staleEngineDetail(read.value) });
  return err(
    compileError({ pass: 'validate', code: unusable.code, issues: [issue] }, 'RECEIPT_REFUSED', {
      file,
      code: unusable.code,
      detail: unusable.detail,
    }),
  );
}

/** Reads an expectation suite (`*.expect.json`) with its schema. */
export function readSuite(suite: string | object, file = 'suite.expect.json'): Result<LoadedSuite, CompileError> {
  return parseExpectationSuiteJson(file, asText(suite));
}

/**
 * The controls and late changes a scenario declares (none for a contract and records), which a suite's cases may name.
 */
export function declaredSwitches(scenario: LoadedScenario | null): { controls: string[]; lateChanges: string[] } {
  if (scenario === null) return { controls: [], lateChanges: [] };
  return {
    controls: scenario.scenario.controls.map((control) => control.id),
    lateChanges: scenario.scenario.lateChanges.map((change) => change.id),
  };
}
