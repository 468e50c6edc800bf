import type { WhatIfSuggestion } from '../../worker/protocol';
import { wordMessage } from '../../core/messages';
import { compileNow, guarded } from './actions';
import { compilerApi } from '../worker-client';
import { useDebugStore } from './debug-store';
import { openRecordForEdit, useEditStore } from './edit-actions';
import { useScenarioStore } from './scenario-store';
import { useUiStore } from './ui-store';

// Answers can arrive out of order when records are inspected one after another: only the newest is shown.
let ticket = 0;

/**
 * Asks what would admit (or exclude) the inspected record in the compilation and view on screen; `key` names
 * them, so the same question is not asked twice and an answer about another compilation is dropped.
 */
export async function loadWhatIf(id: string, key: string): Promise<void> {
  const asked = useDebugStore.getState().whatIf;
  if (asked?.id === id && asked.key === key) return;
  const current = ++ticket;
  useDebugStore.setState({ whatIf: { id, key, response: null }, whatIfIssue: null });
  await guarded('WORKING_OUT_SUGGESTIONS', async () => {
    const response = await compilerApi().whatWouldChange(id, useUiStore.getState().audience);
    if (current !== ticket) return;
    useDebugStore.setState({ whatIf: { id, key, response } });
  });
}

/**
 * Makes a suggested change (an edit of the contract, or a new revision of the record), then compiles: the inspector
 * shows the record as it is then.
 */
export async function applySuggestion(id: string, suggestion: WhatIfSuggestion): Promise<void> {
  let applied = false;
  await guarded('APPLYING_SUGGESTED_CHANGE', async () => {
    const update = await compilerApi().applySuggestion(
      { code: suggestion.code, args: suggestion.args },
      id,
      useUiStore.getState().audience,
    );
    if (!update.ok) {
      useDebugStore.setState({ whatIfIssue: update.issues.map((issue) => issue.message).join('; ') });
      return;
    }
    useScenarioStore.setState({ workspace: update.snapshot, contractIssues: [] });
    useUiStore.setState({
      notice: wordMessage('SUGGESTION_APPLIED', {
        record: suggestion.verifiedBy.change === 'contract' ? null : id,
        text: suggestion.text,
      }),
    });
    applied = true;
  });
  if (!applied) return;
  await compileNow();
  // A record open in the editor is read again, so its undo holds the revision just made.
  const open = useEditStore.getState().record;
  if (open) await openRecordForEdit(open.id);
}
