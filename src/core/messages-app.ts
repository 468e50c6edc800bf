import { grouped, plural } from './messages-wording';

/** What the app was doing when a call to its compiler failed, by code: the words after "the compiler failed while". */
export const ACTIVITIES = {
  APPLYING_CONTRACT: 'applying the contract',
  APPLYING_RECORD_EDIT: 'applying the record edit',
  APPLYING_SUGGESTED_CHANGE: 'applying the suggested change',
  CHANGING_DISCLOSURE_VIEW: 'changing the disclosure view',
  CHANGING_SELECTION: 'changing the selection',
  CHECKING_FROZEN_RECEIPT: 'checking the frozen receipt',
  CHECKING_LOADED_RECEIPTS: 'checking the loaded receipts',
  CHECKING_NEW_RECEIPT: 'checking the new receipt',
  CLEARING_BASELINE: 'clearing the baseline',
  CLOSING_SUITE: 'closing the suite',
  COMPILING: 'compiling',
  DECLARING_LATE_CHANGE: 'declaring the late change',
  EXPORTING_PACKET: 'exporting the packet',
  EXPORTING_RECEIPT: 'exporting the receipt',
  EXPORTING_SCENARIO: 'exporting the scenario',
  EXPORTING_STATEMENT: 'exporting the statement',
  EXPORTING_USER_VIEW: 'exporting the user view',
  FREEZING_RECEIPT: 'freezing the receipt',
  INDEXING_BASELINES: 'indexing for the baselines',
  INSPECTING_RECORD: 'inspecting the record',
  LOADING_FILES: 'loading files',
  MAKING_SHARE_LINK: 'making a share link',
  OPENING_LINK: 'opening the link',
  OPENING_RECORD_EDITOR: 'opening the record for editing',
  OPENING_SUITES: 'opening the suites',
  PINNING_BASELINE: 'pinning the baseline',
  READING_EVIDENCE_ATTEMPTS: 'reading the evidence attempts',
  READING_TRACE: 'reading the trace',
  REDOING_RECORD_EDIT: 'redoing the record edit',
  RESETTING_DRILL: 'resetting the drill',
  RESETTING_WORKSPACE: 'resetting the workspace',
  REVERTING_CONTRACT: 'reverting the contract',
  RUNNING_TESTS: 'running the tests',
  SAVING_WORKSPACE: 'saving the workspace',
  STARTING_COMPILER: 'starting the compiler',
  STEPPING_AS_OF: 'stepping the as-of',
  UNDOING_RECORD_EDIT: 'undoing the record edit',
  UPDATING_DEBUG_VIEWS: 'updating the inspector, baseline and as-of views',
  UPDATING_EXPECTATIONS: 'updating the expectations',
  WORKING: 'working',
  WORKING_OUT_SUGGESTIONS: 'working out what would change the record',
  WRITING_TEST_CASE: 'writing the test case',
} as const;

export type ActivityCode = keyof typeof ACTIVITIES;

/** What a share link holds besides the workspace, by code: what a clause about reopening it names. */
export const SHARED_HELD = { PINNED_BASELINE: 'pinned baseline', FROZEN_RECEIPT: 'frozen receipt' } as const;

export type SharedHeldCode = keyof typeof SHARED_HELD;

interface ScreenOpened {
  readonly audience: string;
  readonly tab: string;
  readonly view: string;
  readonly pinned: boolean;
  readonly frozen: boolean;
  readonly attempted: boolean;
}

export interface LinkMade extends ScreenOpened {
  readonly copied: boolean;
  readonly length: number;
  readonly edits: number;
  readonly files: number;
  readonly opensTo: { readonly label: string; readonly id: string } | null;
}

export interface SharedWorkspaceOpened {
  readonly scenario: string;
  readonly on: number;
  readonly screen: ScreenOpened | null;
  readonly notes: readonly string[];
  readonly verdictLost: boolean;
}

/** The screen a link opens on, as a clause: "the user view, Fire drill tab, Trace rail, with a pinned baseline". */
const screenClause = ({ audience, tab, view, pinned, frozen, attempted }: ScreenOpened) => {
  const held = [
    pinned ? 'a pinned baseline' : null,
    frozen ? `a frozen receipt${attempted ? ' and its verdict' : ''}` : null,
  ];
  const shown = held.filter((part) => part !== null);
  return `the ${audience} view, ${tab} tab, ${view} rail${shown.length > 0 ? `, with ${shown.join(' and ')}` : ''}`;
};

/** The catalogue's messages of the app: share links, notices, failures and storage: a part of `MESSAGES`. */
export const APP_MESSAGES = {
  // Share links.
  SHARE_FROM_USER_VIEW: () =>
    'No link was made: a link made in the user view carries no loaded files, open suites or record ' +
    'edits, since they can hold records that view withholds. Make the link in the diagnostic view, or ' +
    'share a built-in scenario.',
  SHARE_NOT_MADE: ({ problem }: { problem: string }) => `No link was made: ${problem}`,
  SHARE_COMPILER_FAILED: ({ failure }: { failure: string | null }) =>
    `No link was made: the compiler failed.${failure === null ? '' : ` ${failure}`}`,
  SHARE_LINK_TOO_LONG: ({ length, limit }: { length: number; limit: number }) =>
    `No link was made: it would be ${grouped(length)} characters long, over the ${grouped(limit)} a share ` +
    `link may have. Use "Export scenario" and send the file instead.`,
  LINK_MADE: ({ copied, length, edits, files, opensTo, ...screen }: LinkMade) =>
    `${copied ? 'Copied' : 'Made (the browser refused the clipboard: copy it from the box)'} a link of ` +
    `${grouped(length)} characters with the selected scenario and its toggles, ${edits} edited ` +
    `${plural(edits, 'contract')} and ${files} loaded ${plural(files, 'file')}.${opensTo === null ? '' : ` Opening it compiles to ${opensTo.label} ${opensTo.id.slice(0, 12)}.`} It opens on ${screenClause(screen)}.`,
  BLANK_SESSION_STARTED: () => 'Started a blank session: the built-in scenarios, nothing loaded or edited.',
  SHARED_WORKSPACE_OPENED: ({ scenario, on, screen, notes, verdictLost }: SharedWorkspaceOpened) =>
    `Opened a shared workspace: ${scenario}, ${on} ${plural(on, 'control')} or late ` +
    `${plural(on, 'change')} on.${screen === null ? '' : ` On ${screenClause(screen)}.`}${notes.length > 0 ? ` Not brought back: ${notes.join('; ')}.` : ''}${verdictLost ? ' The drill verdict was not brought back: nothing is frozen.' : ''}`,
  BLANK_LINK_MADE: ({ copied }: { copied: boolean }) =>
    `${copied ? 'Copied' : 'Made'} a blank-session link: whoever opens it starts from the built-in scenarios.`,
  SHARED_SCENARIO_NOT_LOADED: ({ held, scenario }: { held: SharedHeldCode; scenario: string }) =>
    `the ${SHARED_HELD[held]} names scenario "${scenario}", which the link does not load`,
  SHARED_CONTRACT_INVALID: ({ held, problem }: { held: SharedHeldCode; problem: string }) =>
    `the ${SHARED_HELD[held]}'s contract is not valid: ${problem}`,
  SHARED_NOT_COMPILING: ({ held, problem }: { held: SharedHeldCode; problem: string }) =>
    `the ${SHARED_HELD[held]} does not compile: ${problem}`,
  SHARED_LATE_CHANGES_UNKNOWN: ({ changes }: { changes: readonly string[] }) =>
    `the declared late ${plural(changes.length, 'change')} ${changes.join(', ')} ` +
    `${changes.length === 1 ? 'is' : 'are'} not in the scenario opened`,

  // The app's notices of what an action did.
  SUGGESTION_APPLIED: ({ record, text }: { record: string | null; text: string }) =>
    `Applied to ${record === null ? 'the contract' : `${record}, as a new revision`}: ${text}.`,
  REMEMBERED_RESULT_REPLACED: ({
    label,
    remembered,
    compiled,
  }: {
    label: string;
    remembered: string;
    compiled: string | null;
  }) =>
    `The result shown from your last session (${label} ${remembered.slice(0, 12)}) is not what the ` +
    `workspace compiles to now${compiled === null ? ' (it does not compile)' : ` (${label} ${compiled.slice(0, 12)})`}: the new compilation replaces it.`,
  SCENARIO_EXPORTED: ({ file, edited, switchOn }: { file: string; edited: boolean; switchOn: readonly string[] }) =>
    `Exported ${file}${edited ? ' with the edited contract' : ''}.${switchOn.length > 0 ? ` Loading it selects it with every control off: switch on ${switchOn.join(', ')} to get this receipt again.` : ' Dropping it back gives this receipt again.'}`,
  CLIPBOARD_REFUSED: () => 'The browser refused clipboard access: use "Download packet" instead.',
  STATEMENT_DOWNLOADED: () => 'Statement downloaded (in-toto Statement v1).',
  RECEIPT_DOWNLOADED: () => 'Diagnostic receipt downloaded.',
  USER_VIEW_DOWNLOADED: () => 'User view downloaded (not a receipt).',
  BASELINE_CLEARED: () => 'Baseline cleared.',

  // The record editor's revisions: an edit in force, a control or late change that applies one, undo and redo.
  RECORD_EDITED: ({ record, revision }: { record: string; revision: number }) =>
    `Edited ${record} (revision ${revision}).`,
  RECORD_EDIT_AS_CHANGE: ({
    as,
    label,
    change,
    record,
  }: {
    as: 'control' | 'late-change';
    label: string;
    change: string;
    record: string;
  }) =>
    `Added the ${as === 'control' ? 'control' : 'late change'} “${label}” (${change}): it applies the ` +
    `edit of ${record} when switched on.`,
  RECORD_EDIT_UNDONE: ({ revision }: { revision: number }) => `Undone: back to revision ${revision}.`,
  RECORD_EDIT_REDONE: ({ revision }: { revision: number }) => `Redone: revision ${revision}.`,

  // The app's fail-closed state: what its compiler was doing, and why the call failed (a thrown error's first line).
  COMPILER_FAILED_WHILE: ({ during }: { during: ActivityCode }) =>
    `NOT COMPILED — the compiler failed while ${ACTIVITIES[during]}`,
  RAN_OUT_OF_STACK: ({ reason }: { reason: string }) =>
    `It ran out of stack space (${reason}), which usually means an input list is longer than it can handle.`,
  RAN_OUT_OF_MEMORY: ({ reason }: { reason: string }) => `It ran out of memory (${reason}).`,
  SQLITE_NOT_LOADED: ({ reason }: { reason: string }) =>
    `SQLite's WebAssembly file could not be loaded (${reason.replace(/\.$/, '')}). Check the connection, ` +
    `or reload once the app has been visited online.`,
  CALL_FAILED: ({ reason }: { reason: string }) =>
    `${reason.charAt(0).toUpperCase()}${reason.slice(1)}${/[.!?…]$/.test(reason) ? '' : '.'}`,
  NO_REASON_GIVEN: () => 'No reason was given.',
  COMPILER_NOT_STARTED: ({ failure }: { failure: string }) =>
    `The compiler could not start in this browser. ${failure}`,
  COMPILER_LOST_RESTORING: ({ reason }: { reason: string }) =>
    `The compiler stopped again while your workspace was being restored: ${reason}.`,

  // Why the compiler's worker, or a helper reading a file's parts, ended: the words after "the compiler stopped".
  WORKER_ERROR: ({ problem }: { problem: string }) => `it hit an unexpected error (${problem})`,
  WORKER_SCRIPT_NOT_LOADED: () => 'its script could not be loaded',
  WORKER_MESSAGE_UNREADABLE: () => 'one of its messages could not be read',
  WORKER_DID_NOT_START: ({ seconds }: { seconds: number }) => `it did not start within ${seconds} seconds`,
  WORKER_ENDED: () => 'it was ended by the browser or crashed',
  WORKER_RESTARTED: () => 'it was restarted',
  PART_HELPER_NOT_STARTED: () => 'the helper could not start',
  PART_HELPER_MESSAGE_UNREADABLE: () => 'a message from the helper could not be read',

  // Where the workspace is kept.
  DATABASE_NO_OPFS: () =>
    'This browser cannot keep the workspace database on disk (no Origin Private File System access from ' +
    'workers): every reload reads, parses and indexes the loaded files again, which is slower.',
  DATABASE_OTHER_TAB: () =>
    'This workspace is open in another tab, which holds its database. This tab works on a copy in ' +
    'memory, slower to load, and saves nothing: close the other tab and reload to work on the saved ' +
    'workspace here.',
  DATABASE_NOT_KEPT: ({ reason }: { reason: string }) =>
    `The workspace database could not be kept on disk (${reason}): every reload reads, parses and indexes ` +
    `the loaded files again, which is slower.`,
  DATABASE_NOT_SAVED: () =>
    'The workspace database could not be saved on disk (its site data may have been cleared while the ' +
    'page was open): it is kept in memory, so a reload will read, parse and index the loaded files ' +
    'again, which is slower.',
  DATABASE_IN_MEMORY: () =>
    'The workspace database is kept in memory: every reload reads, parses and indexes the loaded files ' +
    'again, which is slower.',
  STORAGE_FULL: () =>
    'Browser storage is full: loaded files and edits will not survive a reload. Free some space or reset.',
  DATABASE_SAVE_FAILED: ({ reason }: { reason: string }) =>
    `The workspace database could not be saved on disk (${reason}): everything is loaded, but a reload ` +
    `will read, parse and index the loaded files again.`,
  RECORDS_NOT_KEPT: ({ reason }: { reason: string }) =>
    `The loaded records could not be kept in the workspace database (${reason}): they are loaded, but a ` +
    `reload will read, parse and index their files again.`,
  DATABASE_FULL: ({ needed, free }: { needed: string; free: string | null }) =>
    `Browser storage is full: keeping the workspace database on disk needs about ` +
    `${needed}${free === null ? '' : `, and the browser allows this site ${free} more`}. Everything is loaded, but a reload will read, parse and index the loaded files again. Free some space (or reset the workspace) and load the files again to keep them.`,
  WORKSPACE_FULL: ({ needed, free }: { needed: string; free: string | null }) =>
    `Browser storage is full: saving the loaded files needs about ${needed}${free === null ? '' : ` (the browser allows this site ${free} more)`}, so loaded files and edits will not survive a reload. Free some space or reset.`,
  STORAGE_TIMED_OUT: ({ seconds }: { seconds: number }) =>
    `Browser storage did not answer within ${seconds} seconds: working in memory only, so loaded files ` +
    `and edits will not survive a reload. Reload the page to try storage again.`,
  STORAGE_NOT_ALLOWED: () =>
    'Browser storage (IndexedDB) is not allowed here (a private window or a site setting can refuse it): ' +
    'working in memory only, so loaded files and edits will not survive a reload.',
  STORAGE_FAILED: ({ reason }: { reason: string }) =>
    `Browser storage failed (${reason}): loaded files and edits will not survive a reload.`,
  STORAGE_CLEARED: () =>
    'Browser storage was cleared while this page was open. Your loaded files and contract edits are ' +
    'still here, but nothing is saved now: they will be gone after a reload unless you save them again.',
} as const;
