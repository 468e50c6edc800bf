import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { ok, type CompileError } from '../../core/errors';
import { mismatchLines } from '../../core/expectations/report';
import { runSuite, type CaseFilter } from '../../core/expectations/run';
import { SUITE_SUFFIX } from '../../core/expectations/suite';
import { EXIT } from '../command';
import { renderJunit, type SuiteReport } from '../junit';
import { findSuiteFiles, readSuiteFile, suiteEnvironment } from '../load-suite';
import { defineCommand } from '../define-command';
import { inputError, type PositionalRule } from '../options';
import { describeFileSystemError } from '../read-file';
import { renderError } from '../render';

const options = {
  json: { type: 'boolean', default: false },
  junit: { type: 'string' },
  filter: { type: 'string', multiple: true, default: [] },
} as const satisfies ParseArgsConfig['options'];

const anyPaths: PositionalRule<readonly string[]> = (given) => ok(given);

/** A case runs when some filter is part of its suite's name or its own (with a matrix row's label), ignoring case. */
function filterOf(filters: readonly string[]): CaseFilter {
  const wanted = filters.map((filter) => filter.toLowerCase());
  return (suite, caseName) => wanted.length === 0 || wanted.some((filter) => suite.toLowerCase().includes(filter) || caseName.toLowerCase().includes(filter));
}

function errorJson(error: CompileError) {
  return { pass: error.pass, code: error.code, message: error.message, issues: error.issues ?? [] };
}

function reportJson(reports: readonly SuiteReport[], passed: number, failed: number, errors: number) {
  return {
    passed,
    failed,
    errors,
    suites: reports.map((report) =>
      report.result === undefined
        ? { file: report.file, suite: report.suite, error: errorJson(report.error), cases: [] }
        : {
            file: report.file,
            suite: report.result.suite,
            error: null,
            cases: report.result.cases.map((entry) => ({
              ...entry,
              mismatches: entry.mismatches.map((mismatch) => ({ ...mismatch, line: report.loaded.locator.lineOf(mismatch.path) ?? null })),
            })),
          },
    ),
  };
}

export const testCommand = defineCommand({
  name: 'test',
  summary: 'run expectation suites (*.expect.json): what a contract must decide, case by case',
  usage: `usage: context-compiler test [PATH...] [--filter TEXT]... [--junit FILE] [--json]
Runs every case of every expectation suite named: files as given, folders searched for *${SUITE_SUFFIX}
(no PATH: the suites shipped with the built-in scenarios). Each case is compiled with its controls and
late changes (each row of its matrix on its own) and its expectations are compared with the packet, the
trace, the evidence slots, the fire drill and the naive and post-filter packets. A failing case is printed
with the file, line and field of each expectation that does not hold, expected against actual.
options:
  --filter TEXT   run only cases whose suite or case name (with its matrix row) contains TEXT,
                  ignoring case (repeatable: any of them)
  --junit FILE    also write the results as JUnit XML (for CI)
  --json          print the results as JSON
exit: 0 every case passed · 4 a case failed · 1 a suite could not be read or run, no case to run, or usage`,
  options,
  positionals: anyPaths,
  async run({ values, positionals }, io) {
    const files = findSuiteFiles(positionals, io.cwd);
    if (!files.ok) return inputError(io, files.error);
    const include = filterOf(values.filter);
    const reports: SuiteReport[] = [];
    for (const file of files.value) {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      const loaded = await readSuiteFile(file);
      if (!loaded.ok) {
        reports.push({ file: file.display, seconds: seconds(), suite: null, error: loaded.error });
        continue;
      }
      const env = await suiteEnvironment(file, loaded.value);
      if (!env.ok) {
        reports.push({ file: file.display, seconds: seconds(), suite: loaded.value.suite.suite, error: env.error });
        continue;
      }
      reports.push({ file: file.display, seconds: seconds(), loaded: loaded.value, result: runSuite(loaded.value, env.value, include) });
    }
    const cases = reports.flatMap((report) => report.result?.cases ?? []);
    const failed = cases.filter((entry) => !entry.passed).length;
    const errors = reports.filter((report) => report.result === undefined).length;
    const passed = cases.length - failed;
    const nothingRan = cases.length === 0 && errors === 0;

    if (values.junit !== undefined) {
      try {
        writeFileSync(resolve(io.cwd, values.junit), renderJunit(reports));
      } catch (error) {
        io.stderr(`error: cannot write the JUnit report ${values.junit}: ${describeFileSystemError(error)}\n`);
        return EXIT.invalid;
      }
    }
    if (values.json) {
      io.stdout(`${JSON.stringify(reportJson(reports, passed, failed, errors), null, 2)}\n`);
    } else {
      for (const report of reports) {
        if (report.result === undefined) {
          io.stdout(`ERROR ${report.suite ?? report.file}: the suite could not be run\n`);
          io.stderr(renderError(report.error));
          continue;
        }
        for (const entry of report.result.cases) {
          io.stdout(`${entry.passed ? 'ok  ' : 'FAIL'} ${report.result.suite} › ${entry.name}\n`);
          for (const mismatch of entry.mismatches) io.stdout(`${mismatchLines(report.loaded, mismatch).map((text) => `     ${text}`).join('\n')}\n`);
        }
      }
      io.stdout(`${passed} passed, ${failed} failed${errors > 0 ? `, ${errors} suite${errors === 1 ? '' : 's'} not run` : ''} (${reports.length} suite${reports.length === 1 ? '' : 's'})\n`);
    }
    if (nothingRan) io.stderr(values.filter.length > 0 ? `no case matches --filter ${values.filter.join(', ')}\n` : 'no case to run\n');
    if (errors > 0 || nothingRan) return EXIT.invalid;
    return failed === 0 ? EXIT.ok : EXIT.expectationsFailed;
  },
});
