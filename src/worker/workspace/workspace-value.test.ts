import { sha256 } from '../../core/test-support/sha256';
import { describe, expect, it } from 'vitest';
import { inputIssue } from '../../core/issues';
import { buildContract } from '../../core/test-support/builders';
import { NO_EDIT } from '../../scenarios/record-edits';
import { readBuiltinScenarios } from './builtin-sources';
import { IN_MEMORY_DATABASE } from './background-saves';
import {
  cleared,
  currentEntryOf,
  effectiveOf,
  entryOf,
  initialWorkspace,
  savedOf,
  withContractEdit,
  withEntries,
  withInputsOf,
  withLoad,
  withoutInputs,
  withRecordEdit,
  withRestoreIssues,
  withSelectionNormalised,
  withStorage,
  type WorkspaceValue,
} from './workspace';

const start = (): WorkspaceValue => initialWorkspace(readBuiltinScenarios(sha256), IN_MEMORY_DATABASE);
const builtin = (workspace: WorkspaceValue, key: string) => {
  const entry = entryOf(workspace, key);
  if (!entry) throw new Error(`no scenario ${key}`);
  return entry;
};

describe('the workspace value', () => {
  it('is changed only into a new value: every transition leaves the one it was given as it was', () => {
    const first = start();
    const before = JSON.stringify(savedOf(first, {}));
    const edited = withContractEdit(first, 'retry-policy', buildContract({ tokenBudget: 123 }));
    const loaded = withLoad(
      withEntries(edited, [{ key: 'loaded:mine', loaded: builtin(first, 'refund-desk').loaded }]),
      { baseKey: 'retry-policy', files: [] },
    );
    const selected = withSelectionNormalised(loaded, {
      scenarioKey: 'loaded:mine',
      controls: ['no-such-control'],
      lateChanges: [],
    });
    const stored = withStorage(withRestoreIssues(selected, []), { status: 'unavailable', message: 'full' });
    expect(JSON.stringify(savedOf(first, {}))).toBe(before);
    expect(first.contractEdits.size).toBe(0);
    expect(first.loaded.size).toBe(0);
    expect(stored.selection).toEqual({ scenarioKey: 'loaded:mine', controls: [], lateChanges: [] });
    expect(currentEntryOf(stored).origin).toBe('loaded');
    expect(effectiveOf(stored, builtin(stored, 'retry-policy')).scenario.contract.tokenBudget).toBe(123);
    expect(stored.storageState).toEqual({ status: 'unavailable', message: 'full' });
    expect(first.storageState).toEqual({ status: 'persistent' });
  });

  it('a load of a scenario drops the contract edit its key had, and a reset keeps only the built-in scenarios and their issues', () => {
    const edited = withContractEdit(start(), 'loaded:mine', buildContract());
    const loaded = withEntries(edited, [{ key: 'loaded:mine', loaded: builtin(edited, 'refund-desk').loaded }]);
    expect(loaded.contractEdits.has('loaded:mine')).toBe(false);
    const reset = cleared(
      withRestoreIssues(loaded, [
        inputIssue({ file: 'saved workspace', path: '(root)' }, 'SAVED_WORKSPACE_UNREADABLE'),
      ]),
    );
    expect(reset.loaded.size).toBe(0);
    expect(reset.restoreIssues).toEqual(reset.builtinIssues);
    expect(reset.selection.scenarioKey).toBe('retry-policy');
  });

  it('puts a share link’s inputs in place whole, keeping how storage and the database stand', () => {
    const workspace = withStorage(start(), { status: 'unavailable', message: 'full' });
    const link = withSelectionNormalised(withContractEdit(withoutInputs(start()), 'refund-desk', buildContract()), {
      scenarioKey: 'refund-desk',
      controls: [],
      lateChanges: [],
    });
    const opened = withInputsOf(workspace, link);
    expect(opened.selection.scenarioKey).toBe('refund-desk');
    expect(opened.contractEdits.has('refund-desk')).toBe(true);
    expect(opened.storageState.status).toBe('unavailable');
  });

  it('saves a record edit only while the scenario it was made on is in force', () => {
    const workspace = start();
    const entry = builtin(workspace, 'retry-policy');
    const edit = { base: entry.loaded, edit: NO_EDIT, loaded: entry.loaded };
    expect(savedOf(withRecordEdit(workspace, 'retry-policy', edit), {}).recordEdits).toEqual({
      'retry-policy': NO_EDIT,
    });
    const replaced = withEntries(workspace, [{ key: 'loaded:x', loaded: entry.loaded }]);
    const stale = withRecordEdit(replaced, 'refund-desk', {
      ...edit,
      base: builtin(workspace, 'atlas-credit-review').loaded,
    });
    expect(savedOf(stale, {}).recordEdits).toBeUndefined();
  });
});
