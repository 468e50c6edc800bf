import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { compileError, err, ok, type CompileError, type Result } from '../core/errors';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import type { Receipt } from '../core/result';
import type { Inputs, ScenarioInputs } from '../lib/api';
import { EXIT, type ExitCode } from './command';
import { builtinScenarioPath, DEFAULT_SCENARIO_ID } from './builtin-paths';
import { library } from './library';
import { readDocument, recordsFileChunks } from './read-file';
import { readScenarioFile, scenarioFileInputs } from './read-scenario';

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

export async function loadScenarioArgument(
  argument: string | undefined,
  cwd: string,
): Promise<Result<LoadedScenario, CompileError>> {
  const { path, display } = scenarioFile(argument, cwd);
  return readScenarioFile(path, display);
}

/**
 * The library's inputs from either a scenario (with controls and late changes) or a records file plus a
 * contract file (which have no controls of their own): documents read whole, records streamed as the library
 * reads them (call it inside `readingFiles`).
 */
export async function loadInputs(
  options: InputOptions,
  cwd: string,
  progress?: (text: string) => void,
): Promise<Result<Inputs | ScenarioInputs, CompileError>> {
  if (options.records !== undefined || options.contract !== undefined) {
    if (options.records === undefined || options.contract === undefined || options.scenario !== undefined) {
      return err(compileError({ pass: 'validate', code: 'INVALID_INPUT' }, 'RECORDS_WITH_CONTRACT'));
    }
    if (options.controls.length > 0 || options.lateChanges.length > 0) {
      return err(compileError({ pass: 'controls', code: 'UNKNOWN_CONTROL' }, 'SWITCHES_NEED_SCENARIO'));
    }
    const contractText = await readDocument(resolve(cwd, options.contract), options.contract);
    if (!contractText.ok) return contractText;
    const records = recordsFileChunks(resolve(cwd, options.records), options.records, progress);
    return ok({
      contract: contractText.value,
      contractFile: options.contract,
      records: records.chunks,
      recordsFile: records.name,
    });
  }
  const file = scenarioFile(options.scenario, cwd);
  const scenario = await scenarioFileInputs(file.path, file.display);
  return scenario.ok
    ? ok({ ...scenario.value, controls: options.controls, lateChanges: options.lateChanges })
    : scenario;
}

/**
 * Reads a saved receipt; relative paths are read from `cwd`, and problems name the file as given. A receipt
 * of another schema is refused as STALE_ENGINE_VERSION (by the parser, before its fields are read).
 */
export async function readReceiptFile(path: string, cwd: string): Promise<Result<Receipt, CompileError>> {
  const text = await readDocument(resolve(cwd, path), path);
  return text.ok ? library.readReceipt(text.value, path) : text;
}

/**
 * Reads a saved receipt and checks it first, as the receipt check does: its schema and engine version, and that it
 * hashes to its own id.
 */
export async function readCheckedReceipt(path: string, cwd: string): Promise<Result<Receipt, CompileError>> {
  const text = await readDocument(resolve(cwd, path), path);
  return text.ok ? library.readCheckedReceipt(text.value, path) : text;
}

/**
 * The exit code for a receipt that could not be used: the receipt check's code when it was read, else invalid input.
 */
export function receiptReadExit(error: CompileError): ExitCode {
  if (error.code === 'STALE_ENGINE_VERSION') return EXIT.recompileRequired;
  return error.code === 'RECEIPT_INVALID' ? EXIT.failClosed : EXIT.invalid;
}
