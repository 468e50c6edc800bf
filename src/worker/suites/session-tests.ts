import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import type { Audience } from '../../core/disclosure';
import { err, ok, type InputIssue, type Result } from '../../core/errors';
import { parseExpectationSuiteJson, type LoadedSuite } from '../../core/expectations/suite';
import type { ExpectationSuite } from '../../core/format/expectation';
import { MAX_DOCUMENT_BYTES } from '../../core/format/json-text';
import type { LoadedScenario } from '../../core/phases/1-validate/validate';
import { issuesOf } from '../../core/errors';
import { createExpectationRuns, type TestsView } from './expectation-runs';
import { suiteTooLarge, type NamedBlob } from '../workspace/file-intake';
import type { OpenSuitesResult, Selection } from '../protocol';

export type SessionTests = ReturnType<typeof createSessionTests>;

/**
 * The inputs on screen the suites run on, and what to do when the open suites change (they are saved with the
 * workspace).
 */
export interface TestsScreen {
  readonly inputs: () => { readonly loaded: LoadedScenario; readonly selection: Selection };
  readonly changed: () => void;
}

/**
 * The Tests panel's side of the session: the suites the user opened (from the panel, a drop or a link), run on
 * the inputs on screen, `current()`, with the audience on screen, so the user view's results depend on nothing it
 * withholds (src/core/expectations/for-user.ts).
 */
export function createSessionTests(compiler: SqliteCompiler) {
  const runs = createExpectationRuns(compiler);
  const run = async (audience: Audience, { inputs }: TestsScreen): Promise<TestsView> => {
    const { loaded, selection } = inputs();
    return runs.run({ scenario: loaded, controls: selection.controls, lateChanges: selection.lateChanges, audience });
  };
  /** The open suites as the saved workspace keeps them: no field at all when none is open, so it reads as before. */
  const saved = (): { readonly suites?: { name: string; text: string }[] } => {
    const suites = runs.documents();
    return suites.length === 0 ? {} : { suites };
  };
  return {
    runs,
    /**
     * The open suites as an exported scenario carries them (`suites`, without the `$schema` path of their own files);
     * nothing when none is open.
     */
    exported(): { readonly suites?: ExpectationSuite[] } {
      const suites = runs.documents().map(({ text }) => {
        const { $schema: _path, ...suite } = JSON.parse(text) as ExpectationSuite;
        return suite;
      });
      return suites.length === 0 ? {} : { suites };
    },
    saved,
    /** The open suites for a share link (as saved), and their bytes. */
    sharedSuites(): { readonly suites?: { name: string; text: string }[]; readonly bytes: number } {
      const { suites } = saved();
      const bytes = (suites ?? []).reduce((sum, suite) => sum + new TextEncoder().encode(suite.text).byteLength, 0);
      return suites === undefined ? { bytes } : { suites, bytes };
    },
    /**
     * Reads the suites a share link carries without opening them, so a bad one refuses the whole link; the
     * result opens them in place of those open now, once the rest of the link has been applied.
     */
    readShared(
      files: readonly { readonly name: string; readonly text: string }[] = [],
    ): Result<() => void, InputIssue[]> {
      const read: { loaded: LoadedSuite; text: string }[] = [];
      const issues: InputIssue[] = [];
      for (const { name, text } of files) {
        const parsed = parseExpectationSuiteJson(name, text);
        if (parsed.ok) read.push({ loaded: parsed.value, text });
        else for (const issue of issuesOf(parsed.error, { file: name, path: '(root)' })) issues.push(issue);
      }
      if (issues.length > 0) return err(issues);
      return ok(() => {
        runs.clear();
        for (const { loaded, text } of read) runs.keep(loaded, text);
      });
    },
    /**
     * Opens each suite (one of the same name is replaced); a bad one is refused with its file, line and field, and the
     * others kept.
     */
    async openSuites(files: readonly NamedBlob[], audience: Audience, screen: TestsScreen): Promise<OpenSuitesResult> {
      const issues: InputIssue[] = [];
      for (const { name, blob } of files) {
        const error =
          blob.size > MAX_DOCUMENT_BYTES ? suiteTooLarge({ name, blob }) : runs.open(name, await blob.text());
        if (error !== null) for (const issue of issuesOf(error, { file: name, path: '(root)' })) issues.push(issue);
      }
      screen.changed();
      const view = await run(audience, screen);
      return issues.length === 0 ? { ok: true, view } : { ok: false, issues, view };
    },
    closeSuite(file: string, audience: Audience, screen: TestsScreen): Promise<TestsView> {
      runs.close(file);
      screen.changed();
      return run(audience, screen);
    },
    /** An open suite's text as it was read, for the suite editor; null when no suite of that name is open. */
    suiteText(file: string): string | null {
      return runs.documents().find((document) => document.name === file)?.text ?? null;
    },
    /**
     * The problems of suite text as typed (file, line and field), read as `context-compiler test` reads it; nothing is
     * opened.
     */
    checkSuite(file: string, text: string): readonly InputIssue[] {
      const parsed = parseExpectationSuiteJson(file, text);
      return parsed.ok ? [] : issuesOf(parsed.error, { file, path: '(root)' });
    },
    /** Null while no suite is open: nothing to run. */
    async runTests(audience: Audience, screen: TestsScreen): Promise<TestsView | null> {
      return runs.files().length === 0 ? null : await run(audience, screen);
    },
  };
}
