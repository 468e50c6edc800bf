import { formatIssue, type CompileError } from '../core/errors';
import { mismatchLines } from '../core/expectations/report';
import type { SuiteResult } from '../core/expectations/run';
import type { LoadedSuite } from '../core/expectations/suite';
import { escapeText } from '../core/format/json-text';
import { wordMessage } from '../core/messages';

/** A suite as the report has it: run, or refused before any case ran (its file or its inputs). */
export type SuiteReport = { readonly file: string; readonly seconds: number } & (
  | { readonly loaded: LoadedSuite; readonly result: SuiteResult; readonly error?: undefined }
  | { readonly result?: undefined; readonly suite: string | null; readonly error: CompileError }
);

// A lone surrogate, U+FFFE and U+FFFF cannot appear in XML 1.0 at all, not even as a character reference.
const NOT_XML = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g;

/**
 * Text as XML may hold it: the characters XML forbids (controls, lone surrogates) written as `\uXXXX`, as
 * the terminal shows them, then the five markup characters as entities. Newlines are kept in element text.
 */
export function xmlText(text: string, keepNewlines = false): string {
  const visible = keepNewlines ? text.split('\n').map(escapeText).join('\n') : escapeText(text);
  return visible
    .replace(NOT_XML, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attributes = (values: Readonly<Record<string, string | number>>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlText(String(value))}"`)
    .join('');

/**
 * JUnit XML as CI systems read it (Jenkins, GitLab, GitHub test reporters): one testsuite per suite file,
 * one testcase per case run, a failure per failing case with every mismatch in its text, `skipped` for a
 * case not run (skip, or another case's only), and an error for a suite that could not be run.
 */
export function renderJunit(reports: readonly SuiteReport[]): string {
  let tests = 0;
  let failures = 0;
  let errors = 0;
  const suites: string[] = [];
  for (const report of reports) {
    if (report.result === undefined) {
      tests += 1;
      errors += 1;
      const name = report.suite ?? report.file;
      const detail = [
        `error [${report.error.pass}] ${report.error.code}: ${report.error.message}`,
        ...(report.error.issues ?? []).map((issue) => `  ${formatIssue(issue)}`),
      ].join('\n');
      const suite = { name, file: report.file, tests: 1, failures: 0, errors: 1, time: report.seconds.toFixed(3) };
      const error = { message: report.error.message, type: report.error.code };
      suites.push(
        `  <testsuite${attributes(suite)}>\n` +
          `    <testcase${attributes({ name: 'loads and runs', classname: name, file: report.file })}>\n` +
          `      <error${attributes(error)}>${xmlText(detail, true)}</error>\n` +
          `    </testcase>\n  </testsuite>`,
      );
      continue;
    }
    const { result } = report;
    const failed = result.cases.filter((entry) => !entry.passed).length;
    tests += result.cases.length;
    failures += failed;
    const skipped = result.cases.filter((entry) => entry.skipped !== null).length;
    const cases = result.cases.map((entry) => {
      const open = `    <testcase${attributes({ name: entry.name, classname: result.suite, file: result.file })}`;
      if (entry.skipped !== null)
        return `${open}>\n      <skipped${attributes({ message: entry.skipped })}/>\n    </testcase>`;
      if (entry.passed) return `${open}/>`;
      const first = entry.mismatches[0];
      const message = wordMessage('EXPECTATIONS_NOT_MET', {
        count: entry.mismatches.length,
        subject: first === undefined ? null : first.subject,
      });
      const body = entry.mismatches.flatMap((mismatch) => mismatchLines(report.loaded, mismatch)).join('\n');
      return `${open}>\n      <failure${attributes({ message, type: 'expectation' })}>${xmlText(body, true)}</failure>\n    </testcase>`;
    });
    const suite = {
      name: result.suite,
      file: result.file,
      tests: result.cases.length,
      failures: failed,
      errors: 0,
      skipped,
      time: report.seconds.toFixed(3),
    };
    suites.push(`  <testsuite${attributes(suite)}>\n${cases.join('\n')}\n  </testsuite>`);
  }
  const all = attributes({ name: 'context-compiler test', tests, failures, errors });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${all}>\n${suites.join('\n')}\n</testsuites>\n`;
}
