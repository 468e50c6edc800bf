import { create } from 'zustand';
import type { TestsView } from '../../worker/suites/expectation-runs';
import type { SuiteDraft } from '../../worker/protocol';

interface TestsStoreState {
  /** The suites' last run on the inputs on screen; null until a suite is opened. */
  readonly view: TestsView | null;
  /** Why the last suite opened was refused (file, line and field), or null. */
  readonly refusal: string | null;
  readonly busy: boolean;
  /** A suite written from the screen or updated, shown as a diff until it is kept or discarded; null when none. */
  readonly draft: { readonly purpose: 'case' | 'update'; readonly draft: SuiteDraft } | null;
}

export const INITIAL_TESTS: TestsStoreState = { view: null, refusal: null, busy: false, draft: null };

export const useTestsStore = create<TestsStoreState>(() => INITIAL_TESTS);
