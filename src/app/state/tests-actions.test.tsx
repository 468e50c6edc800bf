// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { inputIssue } from '../../core/issues';
import type { TestsView } from '../../worker/protocol';
import { installFakeApi, resetStores } from '../test-support';
import { compileNow, setAudience } from './actions';
import { closeSuite, openSuites } from './tests-actions';
import { useTestsStore } from './tests-store';
import { useUiStore } from './ui-store';
import { loadFiles } from './workspace-actions';
import { sampleCoverage, sampleWorkspace } from '../test-support';

const view = (passed: boolean): TestsView => ({
  passed: passed ? 1 : 0,
  failed: passed ? 0 : 1,
  coverage: sampleCoverage(),
  suites: [
    {
      file: 'a.expect.json',
      suite: 'a',
      description: '',
      inputsNote: null,
      coverage: sampleCoverage(),
      problems: [],
      cases: [{ name: 'c', passed, mismatches: [], notChecked: 0 }],
    },
  ],
});

beforeEach(() => resetStores());

describe('the Tests panel’s actions', () => {
  it('opens suites in the audience on screen and says why one was refused, at its file and line', async () => {
    const api = installFakeApi({
      openSuites: vi.fn(async () => ({
        ok: false as const,
        issues: [
          inputIssue({ file: 'b.expect.json', line: 3, path: 'cases[0].expect' }, 'UNKNOWN_FIELDS', {
            fields: ['"outcom"'],
          }),
        ],
        view: view(true),
      })),
    });
    useUiStore.setState({ audience: 'user' });
    const file = new File(['{}'], 'b.expect.json');
    await openSuites([file]);
    expect(api.openSuites).toHaveBeenCalledWith([file], 'user');
    expect(useTestsStore.getState()).toMatchObject({
      view: view(true),
      refusal: 'b.expect.json:3: cases[0].expect: unknown field "outcom": not part of the format',
      busy: false,
    });
    await closeSuite('a.expect.json');
    expect(api.closeSuite).toHaveBeenCalledWith('a.expect.json', 'user');
    expect(useTestsStore.getState().refusal).toBeNull();
  });

  it('runs the open suites again after every compilation and change of view, and shows none when the worker fails', async () => {
    const runTests = vi.fn(async () => view(false));
    installFakeApi({ runTests });
    await compileNow();
    expect(useTestsStore.getState().view).toEqual(view(false));
    runTests.mockResolvedValueOnce(view(true));
    await setAudience('user');
    expect(runTests).toHaveBeenLastCalledWith('user');
    expect(useTestsStore.getState().view).toEqual(view(true));
    installFakeApi({ compile: vi.fn(async () => Promise.reject(new Error('lost'))), runTests });
    await compileNow();
    expect(useTestsStore.getState().view).toBeNull();
  });

  it('opens the Tests panel for a dropped suite and runs it on the inputs on screen', async () => {
    const runTests = vi.fn(async () => view(true));
    installFakeApi({
      runTests,
      loadFiles: vi.fn(async () => ({
        status: 'loaded' as const,
        snapshot: sampleWorkspace(),
        kinds: [],
        receiptChecks: [],
        suites: ['a.expect.json'],
      })),
    });
    await loadFiles([new File(['{}'], 'a.expect.json')]);
    expect(useUiStore.getState().workspace).toBe('tests');
    expect(runTests).toHaveBeenCalled();
    expect(useTestsStore.getState().view).toEqual(view(true));
  });
});
