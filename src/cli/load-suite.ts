import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { err, ok, type CompileError, type Result } from '../core/errors';
import { inputIssue } from '../core/issues';
import { SUITE_SUFFIX, type LoadedSuite } from '../core/expectations/suite';
import { invalidInput } from '../core/format/input-issues';
import { quoteValue } from '../core/format/json-text';
import type { Inputs, ScenarioInputs } from '../lib/api';
import { builtinScenarioPath, FIXTURES_DIR } from './builtin-paths';
import { library } from './library';
import { fileError, readDocument, recordsFileChunks, unreadable } from './read-file';
import { scenarioFileInputs } from './read-scenario';

/** A suite file to run: where it is read, and how the report names it. */
export interface SuiteFile {
  readonly path: string;
  readonly display: string;
}

/** How a path is shown: as given relative to the working directory when it is below it, else whole. */
function displayOf(path: string, cwd: string): string {
  const shown = relative(cwd, path);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? path : shown;
}

/**
 * Every `*.expect.json` below a folder, in path order; folders named like `node_modules` or hidden ones are not
 * entered.
 */
function suitesBelow(folder: string): string[] {
  const found: string[] = [];
  const pending = [folder];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.name.endsWith(SUITE_SUFFIX)) found.push(path);
    }
  }
  return found.sort();
}

/**
 * The suite files the arguments name: files as given (whatever their name), folders searched for
 * `*.expect.json`. No argument: the suites shipped with the built-in scenarios.
 */
export function findSuiteFiles(paths: readonly string[], cwd: string): Result<SuiteFile[], CompileError> {
  if (paths.length === 0) return ok(suitesBelow(FIXTURES_DIR).map((path) => ({ path, display: displayOf(path, cwd) })));
  const files: SuiteFile[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    let folder: boolean;
    try {
      folder = statSync(path).isDirectory();
    } catch (error) {
      return err(fileError(given, unreadable(given, error)));
    }
    if (!folder) {
      files.push({ path, display: given });
      continue;
    }
    const below = suitesBelow(path);
    if (below.length === 0)
      return err(
        fileError(given, inputIssue({ file: given, path: '(root)' }, 'NO_SUITE_IN_FOLDER', { suffix: SUITE_SUFFIX })),
      );
    for (const found of below) files.push({ path: found, display: join(given, relative(path, found)) });
  }
  // A file named twice (a folder and a file in it) runs once.
  return ok(files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index));
}

export async function readSuiteFile(file: SuiteFile): Promise<Result<LoadedSuite, CompileError>> {
  const text = await readDocument(file.path, file.display);
  return text.ok ? library.readSuite(text.value, file.display) : text;
}

/** An input file named by the suite: read from the suite's folder, named in messages as the suite names it. */
function inputFile(suite: SuiteFile, name: string): SuiteFile {
  return { path: resolve(dirname(suite.path), name), display: join(dirname(suite.display), name) };
}

function inputsIssue(loaded: LoadedSuite, field: string, scenario: string): CompileError {
  const path = ['inputs', field];
  return invalidInput(
    loaded.file,
    [
      inputIssue(
        { file: loaded.file, line: loaded.locator.lineOf(path), path: `inputs.${field}` },
        'NO_BUILTIN_SCENARIO',
        { scenario },
      ),
    ],
    1,
    'expectation suite',
  );
}

/**
 * What a suite runs on, as the library's inputs: the contract read, the records streamed (call the library inside
 * `readingFiles`), or the scenario it names. The library checks that every control and late change it names exists.
 */
export async function suiteInputs(
  file: SuiteFile,
  loaded: LoadedSuite,
): Promise<Result<Inputs | ScenarioInputs, CompileError>> {
  const { inputs } = loaded.suite;
  if (inputs.records !== undefined && inputs.contract !== undefined) {
    const contractFile = inputFile(file, inputs.contract);
    const recordsFile = inputFile(file, inputs.records);
    const contractText = await readDocument(contractFile.path, contractFile.display);
    if (!contractText.ok) return contractText;
    const records = recordsFileChunks(recordsFile.path, recordsFile.display);
    return ok({
      contract: contractText.value,
      contractFile: contractFile.display,
      records: records.chunks,
      recordsFile: records.name,
    });
  }
  if (inputs.scenario !== undefined) {
    const path = builtinScenarioPath(inputs.scenario);
    if (!existsSync(path)) return err(inputsIssue(loaded, 'scenario', quoteValue(inputs.scenario)));
    return scenarioFileInputs(path, inputs.scenario);
  }
  const scenarioFile = inputFile(file, inputs.scenarioFile ?? '');
  return scenarioFileInputs(scenarioFile.path, scenarioFile.display);
}
