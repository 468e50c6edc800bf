import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import type { InputIssue } from '../../core/errors';
import { validateContract } from '../../core/phases/1-validate/validate';
import { inputIssue } from '../../core/issues';
import { issuesOf } from '../../core/errors';
import { applyScenarioEdit } from '../../scenarios/record-edits';
import type { Comparisons } from '../comparisons/comparisons';
import type { DrillSession } from '../comparisons/drill-session';
import type { ScreenShown, ShareCheck, ShareLinkResult, ShareOpenResult } from '../protocol';
import type { SessionTests } from '../suites/session-tests';
import {
  decodeShareFragment,
  encodeShareFragment,
  MAX_SHARE_FRAGMENT_CHARS,
  MAX_SHARED_FILE_BYTES,
  tooManyFileBytes,
  type SharedWorkspace,
} from './share-link';
import { reopenScreen, screenOf } from './shared-screen';
import {
  entryOf,
  normalisedSelection,
  withContractEdit,
  withEntries,
  withInputsOf,
  withLoad,
  withoutInputs,
  withRecordEdit,
  withSelectionNormalised,
  type Workspace,
} from '../workspace/workspace';
import type { WorkspaceLoads } from '../workspace/workspace-loads';
import { wordMessage } from '../../core/messages';

export interface ShareSessionDeps {
  readonly compiler: SqliteCompiler;
  readonly workspace: Workspace;
  readonly loads: WorkspaceLoads;
  readonly tests: SessionTests;
  readonly comparisons: Comparisons;
  readonly drill: DrillSession;
}

/**
 * Why a link made in the user view carries no files. It says so whatever the files hold: a refusal that depended on
 * whether they hold a record the view withholds would tell the user that they do.
 */
export const NO_FILES_FROM_USER_VIEW = wordMessage('SHARE_FROM_USER_VIEW');

/**
 * The whole workspace (files, edits, toggles, open suites) and the screen on show out to a link fragment and back in
 * from one.
 */
export function createShareSession({ compiler, workspace, loads, tests, comparisons, drill }: ShareSessionDeps) {
  return {
    /**
     * The whole workspace, and the screen `shown` with the pin and drill held here, as a link fragment; or why it
     * cannot be one.
     */
    async createShareLink(shown?: ScreenShown): Promise<ShareLinkResult> {
      const { suites, bytes: suiteBytes } = tests.sharedSuites();
      const { recordEdits } = workspace.saved();
      const { loads: held, selection, contractEdits } = workspace.value();
      if (shown?.audience === 'user' && (held.length > 0 || suites !== undefined || recordEdits !== undefined))
        return { ok: false, message: NO_FILES_FROM_USER_VIEW };
      const fileBytes = workspace.fileBytes() + suiteBytes;
      if (fileBytes > MAX_SHARED_FILE_BYTES)
        return { ok: false, message: wordMessage('SHARE_NOT_MADE', { problem: tooManyFileBytes(fileBytes).message }) };
      const shared: SharedWorkspace = {
        version: 1,
        loads: await Promise.all(
          held.map(async (load) => ({
            baseKey: load.baseKey,
            files: await Promise.all(
              load.files.map(async (file) => ({ name: file.name, text: await file.blob.text() })),
            ),
          })),
        ),
        contractEdits: Object.fromEntries(contractEdits),
        ...(recordEdits === undefined ? {} : { recordEdits }),
        selection: {
          scenarioKey: selection.scenarioKey,
          controls: [...selection.controls],
          lateChanges: [...selection.lateChanges],
        },
        ...(suites === undefined ? {} : { suites }),
        ...(shown ? { screen: screenOf(shown, comparisons.pinnedInputs(), drill.shared()) } : {}),
      };
      const fragment = await encodeShareFragment(shared);
      if (fragment.length > MAX_SHARE_FRAGMENT_CHARS)
        return {
          ok: false,
          message: wordMessage('SHARE_LINK_TOO_LONG', { length: fragment.length, limit: MAX_SHARE_FRAGMENT_CHARS }),
        };
      return {
        ok: true,
        fragment,
        fileBytes,
        files: held.reduce((sum, load) => sum + load.files.length, 0),
        edits: contractEdits.size,
      };
    },

    /**
     * Decodes and validates a link without applying it, so a bad link is refused before anyone is asked to replace
     * their work.
     */
    async checkShareLink(fragment: string): Promise<ShareCheck> {
      const decoded = await decodeShareFragment(fragment);
      if (!decoded.ok) return { ok: false, issues: decoded.error };
      const { loads: sharedLoads, contractEdits: edits, selection: wanted } = decoded.value;
      return {
        ok: true,
        files: sharedLoads.reduce((sum, load) => sum + load.files.length, 0),
        edits: Object.keys(edits).length,
        scenarioKey: wanted.scenarioKey,
      };
    },

    /**
     * Replaces the workspace with the one a share link carries, all or nothing: the fragment is validated
     * like any file, every file goes through the normal intake, and any problem leaves the workspace as it was.
     */
    async openShareLink(fragment: string): Promise<ShareOpenResult> {
      const decoded = await decodeShareFragment(fragment);
      if (!decoded.ok) return { ok: false, issues: decoded.error };
      const shared = decoded.value;
      const wanted = shared.selection;
      const sharedSuites = tests.readShared(shared.suites);
      if (!sharedSuites.ok) return { ok: false, issues: sharedSuites.error };
      // Built apart and put in place whole, so a refused link, or a throw while reading a file (a worker limit),
      // changes nothing.
      let next = withoutInputs(workspace.value());
      let issues: InputIssue[] = [];
      const never = new AbortController().signal;
      for (const [index, load] of shared.loads.entries()) {
        if (!entryOf(next, load.baseKey)) {
          issues.push(
            inputIssue({ file: 'share link', path: `loads[${index}].baseKey` }, 'LINK_SCENARIO_UNKNOWN', {
              scenario: load.baseKey,
            }),
          );
          break;
        }
        const files = load.files.map((file) => ({
          name: file.name,
          blob: new Blob([file.text], { type: 'application/json' }),
        }));
        const applied = await loads.intake(next, files, load.baseKey, () => undefined, never);
        if (!applied.ok) {
          issues = issues.concat(applied.error.issues);
          break;
        }
        next = withLoad(withEntries(next, applied.value.entries), { baseKey: load.baseKey, files });
      }
      for (const [key, value] of issues.length > 0 ? [] : Object.entries(shared.contractEdits)) {
        const contract = validateContract(`share link: contract edit of ${key}`, value);
        const place = { file: 'share link', path: `contractEdits.${key}` };
        if (!entryOf(next, key)) issues.push(inputIssue(place, 'LINK_EDIT_NOT_LOADED', { scenario: key }));
        else if (!contract.ok) issues = issues.concat(issuesOf(contract.error, place));
        else next = withContractEdit(next, key, contract.value);
      }
      for (const [key, edit] of issues.length > 0 ? [] : Object.entries(shared.recordEdits ?? {})) {
        const entry = entryOf(next, key);
        const applied =
          entry && applyScenarioEdit(compiler.sha256, entry.loaded, edit, `share link: record edit of ${key}`);
        if (!entry || !applied)
          issues.push(
            inputIssue({ file: 'share link', path: `recordEdits.${key}` }, 'LINK_EDIT_NOT_LOADED', { scenario: key }),
          );
        else if (!applied.ok)
          issues = issues.concat(issuesOf(applied.error, { file: 'share link', path: `recordEdits.${key}` }));
        else next = withRecordEdit(next, key, { base: entry.loaded, edit, loaded: applied.value });
      }
      // A control the scenario lacks would compile to another receipt than the sender's: refuse rather than drop it.
      const target = entryOf(next, wanted.scenarioKey);
      if (issues.length === 0 && !target)
        issues.push(
          inputIssue({ file: 'share link', path: 'selection.scenarioKey' }, 'LINK_SELECTION_NOT_LOADED', {
            scenario: wanted.scenarioKey,
          }),
        );
      if (issues.length === 0 && target) {
        const normalised = normalisedSelection(next, wanted);
        const dropped = [
          ...wanted.controls.filter((id) => !normalised.controls.includes(id)),
          ...wanted.lateChanges.filter((id) => !normalised.lateChanges.includes(id)),
        ];
        if (dropped.length > 0)
          issues.push(
            inputIssue({ file: 'share link', path: 'selection' }, 'LINK_SWITCHES_UNDECLARED', {
              switches: dropped,
              scenario: wanted.scenarioKey,
            }),
          );
      }
      if (issues.length > 0) return { ok: false, issues };
      const opened = withSelectionNormalised(next, wanted);
      workspace.update((value) => withInputsOf(value, opened));
      sharedSuites.value();
      drill.inputsReplaced();
      comparisons.clear();
      const reopened = shared.screen ? await reopenScreen(shared.screen, compiler, workspace) : null;
      if (reopened?.baseline) comparisons.restorePin(reopened.baseline);
      if (reopened?.frozen) drill.restore(reopened.frozen, reopened.frozen.declared);
      await workspace.persist();
      return {
        ok: true,
        snapshot: workspace.snapshot(),
        screen: reopened && { ...reopened.screen, drill: drill.state() },
      };
    },
  };
}
