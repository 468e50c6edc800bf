import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { CompileRequest } from '../core/compile';
import { err, ok, type CompileError, type Result } from '../core/errors';
import { placeContractIssues } from '../core/format/input-issues';
import { parseContractJson, parseReceiptJson, type LoadedScenario } from '../core/phases/1-validate/validate';
import { receiptIntegrity } from '../core/drill';
import { staleEngineDetail } from '../core/version';
import { inputIssue, REASONS } from '../core/reasons';
import type { Receipt } from '../core/result';
import { EXIT, type ExitCode } from './command';
import { prepareScenario } from '../scenarios/prepare';
import { builtinScenarioPath, DEFAULT_SCENARIO_ID } from './builtin-paths';
import { readDocument, streamRecordsFile } from './read-file';
import { readScenarioFile } from './read-scenario';

export interface InputOptions {
  readonly scenario?: string;
  readonly records?: string;
  readonly contract?: string;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
}

/** Where a scenario argument is read from: a built-in id (`retry-policy`) or a path to a scenario file. */
function scenarioFile(argument: string | undefined, cwd: string): { readonly path: string; readonly display: string } {
  const name = argument ?? DEFAULT_SCENARIO_ID;
  const builtin = builtinScenarioPath(name);
  if (/^[\w-]+$/.test(name) && existsSync(builtin)) return { path: builtin, display: builtin };
  return { path: isAbsolute(name) ? name : resolve(cwd, name), display: name };
}

export async function loadScenarioArgument(argument: string | undefined, cwd: string): Promise<Result<LoadedScenario, CompileError>> {
  const { path, display } = scenarioFile(argument, cwd);
  return readScenarioFile(path, display);
}

/** Names the contract's file, line and path in a compile error that only says "contract" (type-checking). */
export type PlaceIssues = (error: CompileError) => Promise<CompileError>;

/**
 * Builds the compile request from either a scenario (with controls and late changes) or a
 * records file plus a contract file (which have no controls of their own).
 */
export async function loadInputs(
  options: InputOptions,
  cwd: string,
  progress?: (text: string) => void,
): Promise<Result<{ request: CompileRequest; scenario: LoadedScenario | null; place: PlaceIssues }, CompileError>> {
  if (options.records !== undefined || options.contract !== undefined) {
    if (options.records === undefined || options.contract === undefined || options.scenario !== undefined) {
      return err({ pass: 'validate', code: 'INVALID_INPUT', message: 'give --records and --contract together, or --scenario alone' });
    }
    if (options.controls.length > 0 || options.lateChanges.length > 0) {
      return err({ pass: 'controls', code: 'UNKNOWN_CONTROL', message: '--control and --late-change need a scenario: records and a contract carry no controls' });
    }
    const contractText = await readDocument(resolve(cwd, options.contract), options.contract);
    if (!contractText.ok) return contractText;
    const records = await streamRecordsFile(resolve(cwd, options.records), options.records, progress);
    if (!records.ok) return records;
    const contract = parseContractJson(options.contract, contractText.value);
    if (!contract.ok) return contract;
    const contractFile = options.contract;
    const place: PlaceIssues = async (error) => placeContractIssues(error, contractFile, contractText.value);
    return ok({ request: { contract: contract.value, recordSet: records.value }, scenario: null, place });
  }
  const file = scenarioFile(options.scenario, cwd);
  const scenario = await readScenarioFile(file.path, file.display);
  if (!scenario.ok) return scenario;
  const request = prepareScenario(scenario.value, { controls: options.controls, lateChanges: options.lateChanges });
  if (!request.ok) return request;
  // Read again only on an error. A control or late change may have patched the contract, and then the file's lines are not the contract compiled.
  const patched = options.controls.length > 0 || options.lateChanges.length > 0;
  const place: PlaceIssues = async (error) => {
    if (patched) return error;
    const text = await readDocument(file.path, file.display);
    return text.ok ? placeContractIssues(error, file.display, text.value, ['contract']) : error;
  };
  return ok({ request: request.value, scenario: scenario.value, place });
}

/**
 * Reads a saved receipt; relative paths are read from `cwd`, and problems name the file as given. A receipt
 * of another schema is refused as STALE_ENGINE_VERSION (by the parser, before its fields are read).
 */
export async function readReceiptFile(path: string, cwd: string): Promise<Result<Receipt, CompileError>> {
  const text = await readDocument(resolve(cwd, path), path);
  return text.ok ? parseReceiptJson(path, text.value) : text;
}

/** Reads a saved receipt and checks it first, as the receipt check does: its schema and engine version, and that it hashes to its own id. */
export async function readCheckedReceipt(path: string, cwd: string): Promise<Result<Receipt, CompileError>> {
  const read = await readReceiptFile(path, cwd);
  if (!read.ok) return read;
  const unusable = receiptIntegrity(read.value);
  if (unusable === null) return read;
  const issue =
    unusable.code === 'RECEIPT_INVALID'
      ? inputIssue({ file: path, path: 'receiptId' }, 'RECEIPT_ID_MISMATCH')
      : inputIssue({ file: path, path: 'engineVersion' }, 'RECEIPT_ENGINE', { detail: staleEngineDetail(read.value) });
  return err({ pass: 'validate', code: unusable.code, message: `${path}: ${REASONS[unusable.code].summary} ${unusable.detail}`, issues: [issue] });
}

/** The exit code for a receipt that could not be used: the receipt check's code when it was read, else invalid input. */
export function receiptReadExit(error: CompileError): ExitCode {
  if (error.code === 'STALE_ENGINE_VERSION') return EXIT.recompileRequired;
  return error.code === 'RECEIPT_INVALID' ? EXIT.failClosed : EXIT.invalid;
}
