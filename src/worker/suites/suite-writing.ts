import { diffLines } from 'diff';
import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import type { Audience } from '../../core/disclosure';
import { observedIn } from '../../core/expectations/run';
import { variantsOf } from '../../core/expectations/suite';
import { readSuite } from '../../lib/read-inputs';
import { caseOf, expectationOf, refreshedExpectation } from '../../core/expectations/write';
import type { Expectation, SuiteInputs } from '../../core/format/expectation';
import type { LoadedScenario } from '../../core/phases/1-validate/validate';
import { inputIssue } from '../../core/issues';
import { issuesOf } from '../../core/errors';
import { suiteEnvironment } from '../../lib/answers';
import type { CaseFromScreen, Selection, SuiteDiffLine, SuiteDraft } from '../protocol';

interface SuiteWritingDeps {
  readonly compiler: SqliteCompiler;
  readonly current: () => { readonly loaded: LoadedScenario; readonly selection: Selection };
  /**
   * How a suite names the inputs on screen: the built-in scenario's id, or the scenario file "Export scenario" writes.
   */
  readonly inputs: () => SuiteInputs;
  /** The open suites' files and texts. */
  readonly documents: () => readonly { readonly name: string; readonly text: string }[];
}

const suiteText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function diffOf(before: string, after: string): SuiteDiffLine[] {
  return diffLines(before, after).flatMap((part) =>
    part.value
      .replace(/\n$/, '')
      .split('\n')
      .map((text) => ({ kind: part.added ? 'added' : part.removed ? 'removed' : 'same', text }) as const),
  );
}

/** A case's JSON as a person would write it: no empty description. */
function caseJson(value: ReturnType<typeof caseOf>): Record<string, unknown> {
  const { description, ...rest } = value;
  return description === '' ? rest : value;
}

/**
 * Writes expectations from the screen in the worker: a case stating what the inputs on screen compile to, and an
 * open suite's cases rewritten after a deliberate change. Each is returned as text with its diff; the suite is read
 * back with the CLI's parser, so what the page offers is what `context-compiler test` runs.
 */
export function createSuiteWriting({ compiler, current, inputs, documents }: SuiteWritingDeps) {
  // As the Tests panel runs a case.
  const environment = () => {
    const { loaded, selection } = current();
    return suiteEnvironment(compiler, { scenario: loaded }, selection);
  };
  const draft = (
    file: string,
    before: string,
    value: unknown,
    notShown: readonly string[],
    unchanged: readonly string[],
  ): SuiteDraft => {
    const text = suiteText(value);
    const parsed = readSuite(text, file);
    if (!parsed.ok) return { ok: false, issues: issuesOf(parsed.error, { file, path: '(root)' }) };
    return { ok: true, file, text, diff: diffOf(before, text), notShown, unchanged };
  };
  const screenVariant = (expect: Expectation) => ({
    caseIndex: 0,
    entry: { name: 'screen', description: '', expect },
    selection: { controls: [], lateChanges: [] },
    label: null,
    path: ['cases', 0],
  });

  return {
    async caseFromScreen(input: CaseFromScreen, audience: Audience): Promise<SuiteDraft> {
      const { loaded, selection } = current();
      const observed = await observedIn(screenVariant({ outcome: 'packet' }), environment(), audience);
      const { expect, notShown } = expectationOf(observed, input.records);
      const written = caseJson(caseOf(input.name, selection, expect));
      if (input.suite === null) {
        const file = `${loaded.scenario.id}.expect.json`;
        return draft(
          file,
          '',
          { suite: `${loaded.scenario.title}: saved from the screen`, inputs: inputs(), cases: [written] },
          notShown,
          [],
        );
      }
      const open = documents().find((document) => document.name === input.suite);
      if (open === undefined)
        return { ok: false, issues: [inputIssue({ file: input.suite, path: '(root)' }, 'SUITE_NOT_OPEN')] };
      const value = JSON.parse(open.text) as { cases: unknown[] };
      return draft(open.name, open.text, { ...value, cases: [...value.cases, written] }, notShown, []);
    },

    async updatedSuite(file: string, audience: Audience): Promise<SuiteDraft> {
      const open = documents().find((document) => document.name === file);
      if (open === undefined) return { ok: false, issues: [inputIssue({ file, path: '(root)' }, 'SUITE_NOT_OPEN')] };
      const parsed = readSuite(open.text, file);
      if (!parsed.ok) return { ok: false, issues: issuesOf(parsed.error, { file, path: '(root)' }) };
      const value = JSON.parse(open.text) as { cases: Record<string, unknown>[] };
      const unchanged: string[] = [];
      const cases: Record<string, unknown>[] = [];
      for (const [index, raw] of value.cases.entries()) {
        const variant = variantsOf(parsed.value.suite).find(
          (entry) => entry.caseIndex === index && entry.label === null,
        );
        if (variant === undefined) {
          unchanged.push(String(raw.name));
          cases.push(raw);
          continue;
        }
        const observed = await observedIn(variant, environment(), audience);
        cases.push({ ...raw, expect: refreshedExpectation(variant.entry.expect, observed) });
      }
      return draft(file, open.text, { ...value, cases }, [], unchanged);
    },
  };
}
