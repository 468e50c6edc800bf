import { create } from 'zustand';
import type { TestsView } from '../../worker/expectation-runs';

interface TestsStoreState {
  /** The suites' last run on the inputs on screen; null until a suite is opened. */
  readonly view: TestsView | null;
  /** Why the last suite opened was refused (file, line and field), or null. */
  readonly refusal: string | null;
  readonly busy: boolean;
}

export const INITIAL_TESTS: TestsStoreState = { view: null, refusal: null, busy: false };

export const useTestsStore = create<TestsStoreState>(() => INITIAL_TESTS);
