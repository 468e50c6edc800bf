import { writeFileSync } from 'node:fs';
import { wordMessage } from '../../core/messages';
import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { ok } from '../../core/errors';
import { coverageOf, lowestPercent, type CoverageUniverse, type Exercised } from '../../core/expectations/coverage';
import type { CaseFilter } from '../../core/expectations/run';
import { SUITE_SUFFIX } from '../../core/expectations/suite';
import { EXIT, type ExitCode } from '../command';
import { matchesAnyFilter, parseCaseFilter } from '../case-filter';
import { renderJunit, type SuiteReport } from '../junit';
import { library } from '../library';
import { findSuiteFiles, readSuiteFile, suiteInputs, type SuiteFile } from '../load-suite';
import { defineCommand } from '../define-command';
import { inputError, type PositionalRule } from '../options';
import { describeFileSystemError, readingFiles } from '../read-file';
import { renderCoverage, renderReports, reportJson, totalsOf } from '../test-report';
import { watchSuites } from '../watch-suites';

const options = {
  json: { type: 'boolean', default: false },
  junit: { type: 'string' },
  filter: { type: 'string', multiple: true, default: [] },
  verbose: { type: 'boolean', short: 'v', default: false },
  coverage: { type: 'boolean', default: false },
  'min-coverage': { type: 'string' },
  watch: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

const anyPaths: PositionalRule<readonly string[]> = (given) => ok(given);

/** Reads and runs every suite file once, each against its own inputs. */
async function runAll(
  files: readonly SuiteFile[],
  include: CaseFilter,
): Promise<{ reports: SuiteReport[]; exercised: Exercised[]; universes: CoverageUniverse[] }> {
  const reports: SuiteReport[] = [];
  const exercised: Exercised[] = [];
  const universes: CoverageUniverse[] = [];
  for (const file of files) {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const loaded = await readSuiteFile(file);
    if (!loaded.ok) {
      reports.push({ file: file.display, seconds: seconds(), suite: null, error: loaded.error });
      continue;
    }
    const inputs = await suiteInputs(file, loaded.value);
    const suite = loaded.value;
    const ran = inputs.ok
      ? await readingFiles(async () => library.runSuiteInDetail(suite, inputs.value, { include }))
      : inputs;
    if (!ran.ok) {
      reports.push({ file: file.display, seconds: seconds(), suite: suite.suite.suite, error: ran.error });
      continue;
    }
    const { result, universe } = ran.value;
    universes.push(universe);
    for (const entry of result.cases) exercised.push(entry.exercised);
    reports.push({ file: file.display, seconds: seconds(), loaded: loaded.value, result });
  }
  return { reports, exercised, universes };
}

/** The union of what the suites' inputs offer: coverage is over every suite run together. */
function unionOf(universes: readonly CoverageUniverse[]): CoverageUniverse {
  const all = (pick: (universe: CoverageUniverse) => readonly string[]) => [...new Set(universes.flatMap(pick))];
  return {
    controls: all((universe) => universe.controls),
    lateChanges: all((universe) => universe.lateChanges),
    propositions: all((universe) => universe.propositions),
  };
}

export const testCommand = defineCommand({
  name: 'test',
  summary: 'run expectation suites (*.expect.json): what a contract must decide, case by case',
  usage: `usage: context-compiler test [PATH...] [--filter PATTERN]... [-v] [--coverage] [--min-coverage N]
                             [--junit FILE] [--json] [--watch]
Runs every case of every expectation suite named: files as given, folders searched for *${SUITE_SUFFIX}
(no PATH: the suites shipped with the built-in scenarios). Each case is compiled with its controls and
late changes (each row of its matrix on its own) and its expectations are compared with the packet, the
trace, the evidence slots, the fire drill and the naive and post-filter packets. A failing case is printed
with the file, line and field of each expectation that does not hold, expected against what was decided.
A case marked "skip" is not run; when some case of a suite is marked "only", the others are skipped.
options:
  --filter PATTERN  run only matching cases (repeatable: any of them). A glob (* and ?, ignoring case) on
                    the suite or case name; suite:, case:, control: or record: narrows it to that field
                    (control:remove-*, record:ADR-02??). Without a wildcard it matches part of the value
  -v, --verbose     a line for every case, passed and skipped too (default: failures and totals)
  --coverage        which reason codes, failed gates, controls, late changes and propositions the cases
                    reached, and which they never did (also in --json)
  --min-coverage N  fail (exit 4) when any of those is under N percent (implies --coverage)
  --junit FILE      also write the results as JUnit XML (for CI)
  --json            print the results as JSON
  --watch           run again whenever a suite file or an input it names changes (Ctrl+C stops)
exit: 0 every case passed · 4 a case failed, or coverage under --min-coverage · 1 a suite could not be read
      or run, no case to run, or usage`,
  options,
  positionals: anyPaths,
  async run({ values, positionals, usageError }, io) {
    const minimum = values['min-coverage'] === undefined ? null : Number(values['min-coverage']);
    if (minimum !== null && !(Number.isFinite(minimum) && minimum >= 0 && minimum <= 100))
      return usageError('MIN_COVERAGE_RANGE', { given: String(values['min-coverage']) });
    const files = findSuiteFiles(positionals, io.cwd);
    if (!files.ok) return inputError(io, files.error);
    const filters = values.filter.map(parseCaseFilter);
    const include: CaseFilter = (suite, variant, name) => matchesAnyFilter(filters, suite, variant, name);
    const once = async (): Promise<ExitCode> => {
      const { reports, exercised, universes } = await runAll(files.value, include);
      const totals = totalsOf(reports);
      const coverage = values.coverage || minimum !== null ? coverageOf(exercised, unionOf(universes)) : null;
      const nothingRan = totals.passed + totals.failed === 0 && totals.errors === 0;
      if (values.junit !== undefined) {
        try {
          writeFileSync(resolve(io.cwd, values.junit), renderJunit(reports));
        } catch (error) {
          const problem = wordMessage('CANNOT_WRITE_JUNIT', {
            file: values.junit,
            reason: describeFileSystemError(error),
          });
          io.stderr(`${wordMessage('ERROR_LINE', { problem })}\n`);
          return EXIT.invalid;
        }
      }
      if (values.json) io.stdout(`${JSON.stringify(reportJson(reports, totals, coverage), null, 2)}\n`);
      else {
        renderReports(reports, totals, values.verbose, io.stdout, io.stderr);
        if (coverage !== null) io.stdout(renderCoverage(coverage));
      }
      if (nothingRan)
        io.stderr(
          `${values.filter.length > 0 ? wordMessage('NO_CASE_MATCHES', { filters: values.filter }) : wordMessage('NO_CASE_TO_RUN')}\n`,
        );
      if (totals.errors > 0 || nothingRan) return EXIT.invalid;
      const lowest = coverage === null ? null : lowestPercent(coverage);
      if (minimum !== null && lowest !== null && lowest.percent < minimum) {
        io.stderr(`${wordMessage('COVERAGE_UNDER_MINIMUM', { ...lowest, minimum })}\n`);
        return EXIT.expectationsFailed;
      }
      return totals.failed === 0 ? EXIT.ok : EXIT.expectationsFailed;
    };
    if (!values.watch) return once();
    if (io.untilStopped === undefined) return usageError('RUNS_UNTIL_STOPPED', { what: '--watch' });
    return watchSuites(files.value, once, io, io.untilStopped);
  },
});
