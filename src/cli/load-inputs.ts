import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { CompileRequest } from '../core/compile';
import { err, ok, type CompileError, type Result } from '../core/errors';
import { parseContractJson, parseRecordsJsonl, type LoadedScenario } from '../core/passes/validate';
import { parseReceiptJson } from '../core/passes/validate';
import type { Receipt } from '../core/result';
import { prepareScenario } from '../scenarios/prepare';
import { builtinScenarioPath, DEFAULT_SCENARIO_ID } from './builtin-paths';
import { readScenarioFile } from './read-scenario';

export interface InputOptions {
  readonly scenario?: string;
  readonly records?: string;
  readonly contract?: string;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
}

function missingFile(path: string): CompileError {
  return { pass: 'validate', code: 'INVALID_INPUT', message: `${path}: no such file`, issues: [{ file: path, path: '(root)', message: 'no such file' }] };
}

/** A scenario argument is a built-in id (`retry-policy`) or a path to a scenario file. */
export function loadScenarioArgument(argument: string | undefined, cwd: string): Result<LoadedScenario, CompileError> {
  const name = argument ?? DEFAULT_SCENARIO_ID;
  const builtin = builtinScenarioPath(name);
  if (/^[\w-]+$/.test(name) && existsSync(builtin)) return readScenarioFile(builtin);
  const path = isAbsolute(name) ? name : resolve(cwd, name);
  if (!existsSync(path)) return err(missingFile(name));
  return readScenarioFile(path);
}

/**
 * Builds the compile request from either a scenario (with controls and late changes) or a
 * records file plus a contract file (which have no controls of their own).
 */
export function loadInputs(options: InputOptions, cwd: string): Result<{ request: CompileRequest; scenario: LoadedScenario | null }, CompileError> {
  if (options.records !== undefined || options.contract !== undefined) {
    if (options.records === undefined || options.contract === undefined || options.scenario !== undefined) {
      return err({ pass: 'validate', code: 'INVALID_INPUT', message: 'give --records and --contract together, or --scenario alone' });
    }
    if (options.controls.length > 0 || options.lateChanges.length > 0) {
      return err({ pass: 'controls', code: 'UNKNOWN_CONTROL', message: '--control and --late-change need a scenario: records and a contract carry no controls' });
    }
    const read = (path: string): Result<string, CompileError> => {
      const absolute = resolve(cwd, path);
      return existsSync(absolute) ? ok(readFileSync(absolute, 'utf8')) : err(missingFile(path));
    };
    const recordsText = read(options.records);
    if (!recordsText.ok) return recordsText;
    const contractText = read(options.contract);
    if (!contractText.ok) return contractText;
    const records = parseRecordsJsonl(options.records, recordsText.value);
    if (!records.ok) return records;
    const contract = parseContractJson(options.contract, contractText.value);
    if (!contract.ok) return contract;
    return ok({ request: { contract: contract.value, recordSet: records.value }, scenario: null });
  }
  const scenario = loadScenarioArgument(options.scenario, cwd);
  if (!scenario.ok) return scenario;
  const request = prepareScenario(scenario.value, { controls: options.controls, lateChanges: options.lateChanges });
  if (!request.ok) return request;
  return ok({ request: request.value, scenario: scenario.value });
}

/** Reads a saved receipt; relative paths are read from `cwd`, and problems name the file as given. */
export function readReceiptFile(path: string, cwd: string): Result<Receipt, CompileError> {
  const absolute = resolve(cwd, path);
  if (!existsSync(absolute)) return err(missingFile(path));
  return parseReceiptJson(path, readFileSync(absolute, 'utf8'));
}
