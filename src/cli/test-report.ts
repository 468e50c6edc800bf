import type { CompileError } from '../core/errors';
import { COVERAGE_DIMENSIONS, type Coverage, type CoverageDimension } from '../core/expectations/coverage';
import { mismatchLines } from '../core/expectations/report';
import type { SuiteReport } from './junit';
import { renderError } from './render';

export interface Totals {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly errors: number;
}

export function totalsOf(reports: readonly SuiteReport[]): Totals {
  const cases = reports.flatMap((report) => report.result?.cases ?? []);
  const skipped = cases.filter((entry) => entry.skipped !== null).length;
  const failed = cases.filter((entry) => !entry.passed).length;
  return {
    passed: cases.length - failed - skipped,
    failed,
    skipped,
    errors: reports.filter((report) => report.result === undefined).length,
  };
}

function errorJson(error: CompileError) {
  const { pass, code, message, words, issues } = error;
  return { pass, code, message, words, issues: issues ?? [] };
}

export function reportJson(reports: readonly SuiteReport[], totals: Totals, coverage: Coverage | null) {
  return {
    ...totals,
    suites: reports.map((report) =>
      report.result === undefined
        ? { file: report.file, suite: report.suite, error: errorJson(report.error), cases: [] }
        : {
            file: report.file,
            suite: report.result.suite,
            error: null,
            cases: report.result.cases.map((entry) => ({
              ...entry,
              mismatches: entry.mismatches.map((mismatch) => ({
                ...mismatch,
                line: report.loaded.locator.lineOf(mismatch.path) ?? null,
              })),
            })),
          },
    ),
    ...(coverage === null ? {} : { coverage }),
  };
}

const DIMENSION_NAMES: Readonly<Record<CoverageDimension, string>> = {
  codes: 'reason codes',
  gates: 'gates failed',
  controls: 'controls',
  lateChanges: 'late changes',
  propositions: 'propositions',
};

export function renderCoverage(coverage: Coverage): string {
  const lines = ['coverage:'];
  for (const dimension of COVERAGE_DIMENSIONS) {
    const { reached, missed, percent } = coverage[dimension];
    lines.push(
      `  ${DIMENSION_NAMES[dimension].padEnd(13)} ${String(percent).padStart(3)}%  ${reached.length} of ` +
        `${reached.length + missed.length}${missed.length === 0 ? '' : `; never reached: ${missed.join(', ')}`}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The text report: every failure with each expectation that does not hold (expected, then what the trace
 * decided), a suite that could not run, and the totals; with `verbose`, a line for every case run or skipped.
 */
export function renderReports(
  reports: readonly SuiteReport[],
  totals: Totals,
  verbose: boolean,
  out: (text: string) => void,
  err: (text: string) => void,
): void {
  for (const report of reports) {
    if (report.result === undefined) {
      out(`ERROR ${report.suite ?? report.file}: the suite could not be run\n`);
      err(renderError(report.error));
      continue;
    }
    for (const entry of report.result.cases) {
      if (entry.skipped !== null) {
        if (verbose) out(`skip ${report.result.suite} › ${entry.name} (${entry.skipped})\n`);
        continue;
      }
      if (entry.passed && !verbose) continue;
      out(`${entry.passed ? 'ok  ' : 'FAIL'} ${report.result.suite} › ${entry.name}\n`);
      for (const mismatch of entry.mismatches)
        out(
          `${mismatchLines(report.loaded, mismatch)
            .map((text) => `     ${text}`)
            .join('\n')}\n`,
        );
    }
  }
  const { passed, failed, skipped, errors } = totals;
  const notRun = errors > 0 ? `, ${errors} suite${errors === 1 ? '' : 's'} not run` : '';
  out(
    `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}${notRun} (${reports.length} suite${reports.length === 1 ? '' : 's'})\n`,
  );
}
