import type { InputIssue } from '../../core/errors';
import type { ActivityCode } from '../../core/messages-app';
import { formatIssue } from '../../core/errors';
import type { OpenSuitesResult, TestsView } from '../../worker/protocol';
import type { CaseFromScreen, SuiteDraft } from '../../worker/protocol';
import { saveText } from './export-actions';
import { failClosed } from './actions';
import { compilerApi } from '../worker-client';
import { useTestsStore } from './tests-store';
import { useUiStore } from './ui-store';

// The Tests panel: opening and closing suites. Their runs after each compilation are a follow-up of it (actions.ts).

export async function openSuites(files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  useTestsStore.setState({ busy: true });
  let result: OpenSuitesResult;
  try {
    result = await compilerApi().openSuites(files, useUiStore.getState().audience);
  } catch (error) {
    failClosed('OPENING_SUITES', error);
    return;
  }
  useTestsStore.setState({
    view: result.view,
    refusal: result.ok ? null : result.issues.map(formatIssue).join('\n'),
    busy: false,
  });
}

export async function closeSuite(file: string): Promise<void> {
  useTestsStore.setState({ busy: true });
  let view: TestsView;
  try {
    view = await compilerApi().closeSuite(file, useUiStore.getState().audience);
  } catch (error) {
    failClosed('CLOSING_SUITE', error);
    return;
  }
  useTestsStore.setState({ view, refusal: null, busy: false });
}

async function showDraft(
  purpose: 'case' | 'update',
  during: ActivityCode,
  write: () => Promise<SuiteDraft>,
): Promise<void> {
  useTestsStore.setState({ busy: true });
  let draft: SuiteDraft;
  try {
    draft = await write();
  } catch (error) {
    failClosed(during, error);
    return;
  }
  useTestsStore.setState({ draft: { purpose, draft }, busy: false });
}

/**
 * Writes a case stating what the screen shows, in the view it is shown in, and shows it as a diff: nothing is kept yet.
 */
export async function previewCaseFromScreen(input: CaseFromScreen): Promise<void> {
  await showDraft('case', 'WRITING_TEST_CASE', () =>
    compilerApi().caseFromScreen(input, useUiStore.getState().audience),
  );
}

/** Rewrites an open suite's expectations from what its cases observe now, and shows the diff: nothing is kept yet. */
export async function previewUpdatedSuite(file: string): Promise<void> {
  await showDraft('update', 'UPDATING_EXPECTATIONS', () =>
    compilerApi().updatedSuite(file, useUiStore.getState().audience),
  );
}

/** Keeps the suite shown: downloads it and opens it in the Tests panel in place of one of the same name. */
export async function keepDraft(): Promise<void> {
  const shown = useTestsStore.getState().draft;
  if (shown === null || !shown.draft.ok) return;
  const { file, text } = shown.draft;
  saveText(file, text);
  useTestsStore.setState({ draft: null });
  await openSuites([new File([text], file, { type: 'application/json' })]);
}

/**
 * An open suite's text, for the suite editor; null when the worker cannot say (the editor then shows nothing to edit).
 */
export async function suiteTextOf(file: string): Promise<string | null> {
  try {
    return await compilerApi().suiteText(file);
  } catch {
    return null;
  }
}

/**
 * The problems of edited suite text as typed; none when the worker cannot be asked (running the suite reports it then).
 */
export async function checkSuiteText(file: string, text: string): Promise<readonly InputIssue[]> {
  try {
    return await compilerApi().checkSuite(file, text);
  } catch {
    return [];
  }
}

export function discardDraft(): void {
  useTestsStore.setState({ draft: null });
}
