import { formatIssue } from '../../core/errors';
import type { OpenSuitesResult, TestsView } from '../../worker/protocol';
import { failClosed } from './actions';
import { compilerApi } from './api';
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
    failClosed('opening the suites', error);
    return;
  }
  useTestsStore.setState({ view: result.view, refusal: result.ok ? null : result.issues.map(formatIssue).join('\n'), busy: false });
}

export async function closeSuite(file: string): Promise<void> {
  useTestsStore.setState({ busy: true });
  let view: TestsView;
  try {
    view = await compilerApi().closeSuite(file, useUiStore.getState().audience);
  } catch (error) {
    failClosed('closing the suite', error);
    return;
  }
  useTestsStore.setState({ view, refusal: null, busy: false });
}
