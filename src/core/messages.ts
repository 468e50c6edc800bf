import { REASONS, type ReasonCode } from './reasons';
import { ISSUES } from './issues';

interface EngineVersions {
  readonly receipt: string | null;
  readonly receiptSchema: string;
  readonly engine: string;
  readonly schema: string;
}

interface SwitchesThenAndNow {
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  readonly nowControls: readonly string[];
  readonly nowLateChanges: readonly string[];
}

const plural = (count: number, word: string) => `${word}${count === 1 ? '' : 's'}`;
const grouped = (count: number) => count.toLocaleString('en-GB');

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

interface LinkMade extends ScreenOpened {
  readonly copied: boolean;
  readonly length: number;
  readonly edits: number;
  readonly files: number;
  readonly opensTo: { readonly label: string; readonly id: string } | null;
}

interface SharedWorkspaceOpened {
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

/**
 * What a refusal, a notice or a status line says, by code: every message that is not a trace fact (`FACTS`) or an
 * input issue (`ISSUES`) is a code and its arguments, worded only here. An argument named `reason`, `problem` or
 * `detail` carries wording from outside this catalogue: a thrown error's, a driver's, zod's, or one the catalogue
 * itself made (an issue's message, a fact rendered), never a sentence written where the message is made.
 */
export const MESSAGES = {
  // Files and inputs, as one line per refused file.
  FILE_PROBLEMS: ({ file, kind, total, shown }: { file: string; kind: string | null; total: number; shown: number }) =>
    `${file}: ${kind === null ? '' : `not a valid ${kind}: `}${total} ${plural(total, 'problem')}${total > shown ? ` (first ${shown} shown)` : ''}`,
  FILE_PROBLEM: ({ file, problem }: { file: string; problem: string }) => `${file}: ${problem}`,
  ISSUE_AT: ({ where, path, problem }: { where: string; path: string; problem: string }) =>
    `${where}: ${path}: ${problem}`,
  RECEIPT_REFUSED: ({ file, code, detail }: { file: string; code: ReasonCode; detail: string }) =>
    `${file}: ${REASONS[code].summary} ${detail}`,
  FOUNDATION_PROBLEMS: ({ count }: { count: number }) => `retrieval foundation: ${count} ${plural(count, 'problem')}`,
  READ_AS: ({ recognised, problems }: { recognised: string; problems: string }) => `read as ${recognised}: ${problems}`,
  READ_AS_TOO_LARGE: ({ recognised }: { recognised: string }) => `read as ${recognised}: too large`,
  USER_VIEW_EXPORT_DROPPED: () => 'a user-view export, which is not a receipt',
  FILE_NOT_RECOGNISED: () => 'not recognised as any kind of file this version reads',
  LOADED: ({ files }: { files: readonly string[] }) => `Loaded ${files.join(', ')}.`,

  // Controls and late changes.
  CHANGE_REFUSED: ({ change, label, problem }: { change: string; label: string; problem: string }) =>
    `${change} ("${label}"): ${problem}`,
  PATCHED_CONTRACT_INVALID: ({ path, problem }: { path: string; problem: string }) =>
    `the patched contract is invalid at ${path}: ${problem}`,
  PATCHED_RECORD_INVALID: ({ record, path, problem }: { record: string; path: string; problem: string }) =>
    `the patched record ${record} is invalid at ${path}: ${problem}`,
  PATCH_RECORD_MISSING: ({ record }: { record: string }) => `patches record ${record}, which is not among the records`,
  PATCH_RENAMES: ({ record }: { record: string }) => `a patch may not rename record ${record}`,
  ADD_RECORD_EXISTS: ({ record }: { record: string }) => `adds record ${record}, which already exists`,
  REMOVE_RECORD_MISSING: ({ record }: { record: string }) => `removes record ${record}, which is not among the records`,
  SWITCH_UNKNOWN: ({ kind, id, known }: { kind: string; id: string; known: readonly string[] }) =>
    `no ${kind} "${id}"; available: ${known.join(', ') || 'none'}`,
  RECORDS_WITH_CONTRACT: () => 'give --records and --contract together, or --scenario alone',
  SWITCHES_NEED_SCENARIO: () => '--control and --late-change need a scenario: records and a contract carry no controls',
  GROWTH_SIZES: ({ sizes }: { sizes: readonly number[] }) => `growth sizes must be among ${sizes.join(', ')}`,

  // The CLI itself: a run that stopped on a bug or an exhausted resource, and a suite's JUnit failure line.
  CLI_OUT_OF_ROOM: ({ reason }: { reason: string }) =>
    `context-compiler ran out of room (an input may be too large or too deeply nested): ${reason}`,
  CLI_STOPPED: ({ reason }: { reason: string }) => `context-compiler stopped unexpectedly: ${reason}`,
  EXPECTATIONS_NOT_MET: ({ count, subject }: { count: number; subject: string | null }) =>
    `${count} ${plural(count, 'expectation')} not met${subject === null ? '' : `: ${subject}`}`,

  // The CLI's own lines on stderr: what it is doing, and why a run stopped.
  ERROR_LINE: ({ problem }: { problem: string }) => `error: ${problem}`,
  CANNOT_WRITE_OUTPUT: ({ reason }: { reason: string }) => `cannot write output (${reason})`,
  CANNOT_LISTEN: ({ host, port, reason }: { host: string; port: number; reason: string }) =>
    `cannot listen on ${host}:${port} (${reason})`,
  CANNOT_WRITE_JUNIT: ({ file, reason }: { file: string; reason: string }) =>
    `cannot write the JUnit report ${file}: ${reason}`,
  SERVING: ({ url, app }: { url: string; app: boolean }) =>
    `serving ${app ? 'the app and the API' : 'the API only (the app is not built: npm run build)'} at ${url}  (Ctrl+C stops)`,
  STOPPING: () => 'stopping: finishing requests under way',
  NO_CASE_MATCHES: ({ filters }: { filters: readonly string[] }) => `no case matches --filter ${filters.join(', ')}`,
  NO_CASE_TO_RUN: () => 'no case to run',
  COVERAGE_UNDER_MINIMUM: ({ dimension, percent, minimum }: { dimension: string; percent: number; minimum: number }) =>
    `coverage of ${dimension} is ${percent}%, under --min-coverage ${minimum}%`,
  WATCHING: ({ folders }: { folders: number }) => `watching ${folders} ${plural(folders, 'folder')} (Ctrl+C stops)`,
  CHANGED_RUNNING_AGAIN: ({ names }: { names: readonly string[] }) => `changed: ${names.join(', ')}; running again`,
  NO_LATE_CHANGE_TO_REHEARSE: ({ scenario }: { scenario: string }) =>
    `scenario ${scenario} declares no late change to rehearse`,
  PROGRESS: ({ label, percent }: { label: string; percent: number }) => `${label}: ${percent} %`,

  // A command line the CLI refuses, before anything is read.
  COMMAND_LINE_REFUSED: ({ reason }: { reason: string }) => reason,
  UNKNOWN_OPTION_FOR: (args: { option: string; command: string; nearest: readonly string[] }) =>
    ISSUES.UNKNOWN_OPTION(args),
  UNKNOWN_COMMAND: ({ command }: { command: string }) => `unknown command "${command}"`,
  STANDARD_INPUT_ONCE: () => 'standard input (-) can be read for one input only',
  UNEXPECTED_ARGUMENT: ({ argument }: { argument: string }) => `unexpected argument ${argument}`,
  GIVE_OPTIONS: ({ options }: { options: readonly string[] }) => `give ${options.join(' and ')}`,
  GIVE_LOAD_OPTIONS: () => 'give --database and one of --records, --upsert or --delete',
  GIVE_IDS_TO_DELETE: () => 'give the ids to delete after --delete',
  GIVE_TWO_RECEIPTS: () => 'give exactly two receipt files',
  GIVE_ONE_RECORDS_FILE: () => 'give exactly one records file',
  CHECK_OR_WRITE: () => 'give --check or --write, not both',
  SCRATCH_SCHEMA: ({ schema }: { schema: string }) =>
    `--schema ${schema} is where \`load\` writes records: give a scratch schema`,
  RUNS_UNTIL_STOPPED: ({ what }: { what: string }) => `${what} runs until it is stopped, which this caller cannot do`,
  LIMIT_POSITIVE: ({ given }: { given: string }) => `--limit must be a positive integer, not ${given}`,
  LIMIT_ROWS: ({ given }: { given: string }) => `--limit must be a whole number of rows, not ${given}`,
  MIN_COVERAGE_RANGE: ({ given }: { given: string }) =>
    `--min-coverage must be a percentage from 0 to 100, not ${given}`,
  PORT_RANGE: ({ given }: { given: string }) => `--port must be a whole number from 0 to 65535, not ${given}`,
  MAX_BODY_POSITIVE: ({ given }: { given: string }) =>
    `--max-body must be a positive whole number of bytes, not ${given}`,
  VIEW_VALUE: ({ given }: { given: string }) => `--view must be user or diagnostic, not ${given}`,
  ATTEST_VALUE: ({ given }: { given: string }) => `--attest must be full or candidates, not ${given}`,
  DIAGNOSTIC_ONLY_OPTION: ({ option }: { option: string }) =>
    `--${option} writes the diagnostic receipt, which names every record: it needs --view diagnostic`,
  DATABASE_TAKES_ALONE: ({ options }: { options: readonly string[] }) =>
    `--database takes ${options.join(' and ')} alone: the records are the ones \`context-compiler load\` wrote to the database`,
  JUDGE_NEEDS_RECEIPT: () =>
    '--records and --contract judge a saved receipt: give --receipt FILE (a rehearsal needs a scenario and its late change)',
  DRILL_SWITCHES_NEED_SCENARIO: () =>
    '--control and --change need a scenario: records and a contract carry no controls or late changes',
  NOTHING_TO_JUDGE: ({ receipt }: { receipt: string }) =>
    `NOTHING_TO_JUDGE_AGAINST: ${receipt}: ${ISSUES.NOTHING_TO_JUDGE_AGAINST()}`,
  ONE_EXPERIMENT: ({ given }: { given: readonly string[] }) => `one experiment at a time, got ${given.join(' ')}`,
  UNKNOWN_EXPERIMENT: ({ name }: { name: string }) => `unknown experiment "${name}"`,
  JSON_OR_MARKDOWN: () => '--json and --markdown: choose one',
  MARKDOWN_ALL_EXPERIMENTS: () => '--markdown writes the whole page: all three experiments',
  SEED_RANGE: ({ max }: { max: number }) => `--seed must be a whole number from 0 to ${max}`,
  SIZES_VALUE: ({ given, block }: { given: string; block: number }) =>
    `--sizes: "${given}" is not a positive multiple of ${block} up to 1,000,000`,

  // Stops of the compile passes.
  REQUIRED_ABSENT_STOP: ({ record }: { record: string }) =>
    `Required record ${record} is absent: no packet is emitted.`,
  REQUIRED_UNAUTHORISED_STOP: ({ record }: { record: string }) =>
    `Required record ${record} is outside the authorised scope: no packet is emitted.`,
  REQUIRED_NO_PROVENANCE_STOP: ({ record, fact }: { record: string; fact: string }) =>
    `Required record ${record} has no verifiable provenance (${fact}): no packet is emitted.`,
  REQUIRED_GATE_STOP: ({ record, gate, fact }: { record: string; gate: string | null; fact: string }) =>
    `Required record ${record} fails the ${gate ?? 'a'} gate (${fact}): no packet is emitted.`,
  REQUIRED_OVER_BUDGET_STOP: ({ tokens, budget }: { tokens: number; budget: number }) =>
    `The required records need ${tokens} tokens but the budget is ${budget}: no packet is emitted.`,
  PROPOSITION_TWICE_STOP: ({ index, proposition }: { index: number; proposition: string }) =>
    `contract.requiredPropositions[${index}].id: proposition "${proposition}" is declared twice`,
  TYPED_EVIDENCE_STOP: () =>
    'contract.typedEvidenceOnly: admitting only typed evidence needs at least one required proposition',
  SUBJECT_AMBIGUOUS_STOP: ({ subject, identities }: { subject: string; identities: readonly string[] }) =>
    `contract subject "${subject}" matches ${identities.length} identities (${identities.join(', ')}): name one; it is never chosen by score`,
  ADMISSION_DISAGREEMENT: ({ record, detail }: { record: string; detail: string }) =>
    `Admission disagreement on ${record}: ${detail}. Nothing is emitted until the adapter and the reference evaluator agree.`,

  // Adapters and lowering.
  ADAPTER_LACKS: ({ adapter, missing, why }: { adapter: string; missing: readonly string[]; why: readonly string[] }) =>
    `The ${adapter} adapter does not preserve ${missing.join(', ')} (${why.join('; ')}). Refusing rather than approximating a gate.`,
  ADAPTER_CANNOT_LOWER: ({ adapter, op, gate }: { adapter: string; op: string; gate: string }) =>
    `The ${adapter} adapter cannot lower the operator ${op} (gate ${gate}). Refusing rather than dropping the gate.`,
  CLAUSE_MISTYPED: ({ gate }: { gate: string }) =>
    `The plan's ${gate} clause compares values of another type with its field. Refusing the plan.`,
  ADAPTER_NO_ANSWER: ({ adapter, problem }: { adapter: string; problem: string }) =>
    `The ${adapter} adapter returned no complete answer: ${problem}. No candidate is used.`,
  ANSWER_HAD_NO_ROW: () => 'the answer statement returned no row',
  ADAPTER_OTHER_PLAN: ({ adapter, executed, expected }: { adapter: string; executed: string; expected: string }) =>
    `The ${adapter} adapter executed plan ${executed}, not ${expected}: its candidates answer another plan. No candidate is used.`,
  ADAPTER_ROW_UNREADABLE: ({ adapter, problem }: { adapter: string; problem: string | null }) =>
    `The ${adapter} adapter returned a record row the gates cannot read: ${problem ?? 'malformed'}.`,
  SHARDS_APART: ({ adapter, snapshot, shards }: { adapter: string; snapshot: string; shards: string }) =>
    `The ${adapter} adapter's shards are not all at the coordinator's snapshot ${snapshot} (${shards}): their rows would mix record sets. No candidate is used.`,
  LOWERING_NO_FORM: ({ store, op }: { store: string; op: string }) =>
    `The ${store} lowering has no form for the operator ${op}. Refusing rather than dropping a gate.`,
  LOWERING_TOO_MANY_VALUES: ({ needed, allowed }: { needed: number; allowed: number }) =>
    `The contract needs ${needed} bound values; this SQLite build allows ${allowed}. Refusing rather than dropping a gate.`,
  ANSWER_NO_REASON_CODE: ({ gate, op }: { gate: string; op: string }) =>
    `The PostgreSQL answer has no reason code for the ${gate} gate's ${op}. Refusing rather than guessing one.`,
  SERVER_TOO_OLD: ({ version }: { version: string | null }) =>
    `The PostgreSQL adapter needs PostgreSQL 15 or later; this server is ${version ?? 'unknown'}.`,
  DATABASE_RECORD_CHANGED: ({ table, record }: { table: string; record: string }) =>
    `${table}: record ${record} no longer matches the fingerprint it was loaded with; load the records file again`,
  LOAD_ROLLED_BACK: ({ problem }: { problem: string }) => `${problem}; the load was rolled back, nothing was written`,
  DELETION_ROLLED_BACK: ({ problem }: { problem: string }) =>
    `${problem}; the deletion was rolled back, nothing was deleted`,
  DATABASE_HOLDS_NO_RECORDS: () =>
    'the database holds no records: run `context-compiler load --database URL --records FILE.jsonl` first',
  DATABASE_OTHER_LAYOUT: ({ layout, current }: { layout: number; current: number }) =>
    `the database's records were loaded by another version (layout ${layout}, this is ${current}): load them again`,
  DATABASE_OPTION: ({ problem }: { problem: string }) => `--database: ${problem}`,
  CANNOT_CONNECT: ({ target, reason }: { target: string; reason: string }) => `cannot connect to ${target}: ${reason}`,
  DATABASE_FAILED: ({ database, reason }: { database: string; reason: string }) =>
    `the database ${database} failed: ${reason}`,

  // The local service's refusals of a request (a compile's errors keep the core's codes and words).
  INVALID_REQUEST: ({ route }: { route: string }) =>
    `The ${route} request does not have the documented shape (see /api/openapi.json).`,
  INVALID_JSON: () => 'The request body is not JSON.',
  UNSUPPORTED_MEDIA_TYPE: () => 'Send the request body as application/json.',
  REQUEST_TOO_LARGE: ({ limit }: { limit: number }) =>
    `The request body is over ${limit} bytes (serve --max-body raises the limit).`,
  NOT_FOUND: ({ path }: { path: string }) => `Nothing is served at ${path}.`,
  METHOD_NOT_ALLOWED: ({ method, allowed }: { method: string; allowed: string }) =>
    `${method} is not allowed here; use ${allowed}.`,
  UNKNOWN_SCENARIO: ({ scenario, known }: { scenario: string; known: string }) =>
    `No built-in scenario is called ${JSON.stringify(scenario)}; the built-in ones are ${known}.`,
  HOST_NOT_ALLOWED: () => 'This service answers only requests addressed to the host it listens on.',
  APP_NOT_BUILT: () =>
    'The app is not built here: run `npm run build` in the clone (an installed package ships it built).',
  INTERNAL: () => 'The service stopped on this request; nothing was kept. Try again, or report it with the request.',

  // A refusal as the user view words it: by its reason code alone, since its own words may name a withheld record.
  REASON_SUMMARY: ({ code }: { code: ReasonCode }) => REASONS[code].summary,
  SCOPE_NOT_PROCESSED: ({ code }: { code: ReasonCode }) =>
    `${REASONS[code].summary} The requested scope cannot be processed in this workflow.`,

  // The drill and the debugger.
  DRILL_VERDICT: ({ code, detail }: { code: ReasonCode; detail: string }) =>
    `${REASONS[code].summary} ${detail}`.trim(),
  RECEIPT_HASH_DIFFERS: () => 'Its content hashes to a different id.',
  ENGINES_DIFFER: ({ receipt, receiptSchema, engine, schema }: EngineVersions) =>
    `Receipt ${receipt ?? 'an unknown engine'} (${receiptSchema}); engine ${engine} (${schema}).`,
  CURRENT_INPUTS_FAILED: ({ code, problem }: { code: ReasonCode; problem: string }) => `${code}: ${problem}`,
  FAILED_CLOSED_WITH: ({ failure }: { failure: string | null }) => `It failed closed with ${failure ?? 'a failure'}.`,
  DECLARED_AFTER_RECEIPT: ({ changes }: { changes: readonly string[] }) =>
    `Declared after the receipt: ${changes.join(', ')}.`,
  REPERFORMED_ELSEWHERE: ({ made, again }: { made: string; again: string }) =>
    `It was made by ${made} and reperformed by ${again}: the same bytes but for the adapter's name.`,
  DECLARED_INPUTS_GIVE: ({ receipt }: { receipt: string }) => `Compiling its declared inputs gives receipt ${receipt}.`,
  CLAIMED_CONTRACT_FINGERPRINT: () => 'The contract it carries does not hash to the contract fingerprint it claims.',
  CLAIMED_SELECTED: () => 'Its selected list is not the rows it marks selected.',
  CLAIMED_ROW: () => 'Its own contract decides otherwise for a record still at hand in the version it names.',
  RECORDS_NOT_AT_HAND: () =>
    'Its record set is not at hand; its claims on the records still at hand held when reperformed.',
  INPUTS_NOT_AT_HAND: () => 'Its own inputs were not at hand, so its claims were not reperformed.',
  CONTRACT_DIFFERS: () => 'The contract fingerprint differs from the receipt.',
  PACKET_DIFFERS: () => 'The current inputs compile to a different packet.',
  RECORD_SET_DIFFERS: () => 'The record-set digest differs from the receipt.',
  SWITCHES_DIFFER: ({ controls, lateChanges, nowControls, nowLateChanges }: SwitchesThenAndNow) =>
    `Compiled with controls [${controls.join(', ')}] and late changes [${lateChanges.join(', ')}]; now [${nowControls.join(', ')}] and [${nowLateChanges.join(', ')}].`,
  NOTHING_COMPILED_YET: () => 'Nothing has been compiled yet.',
  NOTHING_COMPILED_NOW: () => 'Nothing is compiled now.',
  NO_RECORD_IN_VIEW: ({ id }: { id: string }) => `No record "${id}" in this view.`,
  INPUTS_CHANGED_INSPECT_AGAIN: () => 'The inputs changed: inspect the record again.',
  EXPERIMENT_FAILED: ({ reason }: { reason: string }) => `The worker could not run the experiment: ${reason}`,

  // Share links.
  SHARE_FROM_USER_VIEW: () =>
    'No link was made: a link made in the user view carries no loaded files, open suites or record edits, since they can hold records that view withholds. Make the link in the diagnostic view, or share a built-in scenario.',
  SHARE_NOT_MADE: ({ problem }: { problem: string }) => `No link was made: ${problem}`,
  SHARE_COMPILER_FAILED: ({ failure }: { failure: string | null }) =>
    `No link was made: the compiler failed.${failure === null ? '' : ` ${failure}`}`,
  SHARE_LINK_TOO_LONG: ({ length, limit }: { length: number; limit: number }) =>
    `No link was made: it would be ${grouped(length)} characters long, over the ${grouped(limit)} a share link may have. Use "Export scenario" and send the file instead.`,
  LINK_MADE: ({ copied, length, edits, files, opensTo, ...screen }: LinkMade) =>
    `${copied ? 'Copied' : 'Made (the browser refused the clipboard: copy it from the box)'} a link of ${grouped(length)} characters with the selected scenario and its toggles, ${edits} edited ${plural(edits, 'contract')} and ${files} loaded ${plural(files, 'file')}.${opensTo === null ? '' : ` Opening it compiles to ${opensTo.label} ${opensTo.id.slice(0, 12)}.`} It opens on ${screenClause(screen)}.`,
  BLANK_SESSION_STARTED: () => 'Started a blank session: the built-in scenarios, nothing loaded or edited.',
  SHARED_WORKSPACE_OPENED: ({ scenario, on, screen, notes, verdictLost }: SharedWorkspaceOpened) =>
    `Opened a shared workspace: ${scenario}, ${on} ${plural(on, 'control')} or late ${plural(on, 'change')} on.${screen === null ? '' : ` On ${screenClause(screen)}.`}${notes.length > 0 ? ` Not brought back: ${notes.join('; ')}.` : ''}${verdictLost ? ' The drill verdict was not brought back: nothing is frozen.' : ''}`,
  BLANK_LINK_MADE: ({ copied }: { copied: boolean }) =>
    `${copied ? 'Copied' : 'Made'} a blank-session link: whoever opens it starts from the built-in scenarios.`,
  SHARED_SCENARIO_NOT_LOADED: ({ held, scenario }: { held: SharedHeldCode; scenario: string }) =>
    `the ${SHARED_HELD[held]} names scenario "${scenario}", which the link does not load`,
  SHARED_CONTRACT_INVALID: ({ held, problem }: { held: SharedHeldCode; problem: string }) =>
    `the ${SHARED_HELD[held]}'s contract is not valid: ${problem}`,
  SHARED_NOT_COMPILING: ({ held, problem }: { held: SharedHeldCode; problem: string }) =>
    `the ${SHARED_HELD[held]} does not compile: ${problem}`,
  SHARED_LATE_CHANGES_UNKNOWN: ({ changes }: { changes: readonly string[] }) =>
    `the declared late ${plural(changes.length, 'change')} ${changes.join(', ')} ${changes.length === 1 ? 'is' : 'are'} not in the scenario opened`,

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
    `The result shown from your last session (${label} ${remembered.slice(0, 12)}) is not what the workspace compiles to now${compiled === null ? ' (it does not compile)' : ` (${label} ${compiled.slice(0, 12)})`}: the new compilation replaces it.`,
  SCENARIO_EXPORTED: ({ file, edited, switchOn }: { file: string; edited: boolean; switchOn: readonly string[] }) =>
    `Exported ${file}${edited ? ' with the edited contract' : ''}.${switchOn.length > 0 ? ` Loading it selects it with every control off: switch on ${switchOn.join(', ')} to get this receipt again.` : ' Dropping it back gives this receipt again.'}`,
  CLIPBOARD_REFUSED: () => 'The browser refused clipboard access: use "Download packet" instead.',
  STATEMENT_DOWNLOADED: () => 'Statement downloaded (in-toto Statement v1).',
  RECEIPT_DOWNLOADED: () => 'Diagnostic receipt downloaded.',
  USER_VIEW_DOWNLOADED: () => 'User view downloaded (not a receipt).',
  BASELINE_CLEARED: () => 'Baseline cleared.',

  // The app's fail-closed state: what its compiler was doing, and why the call failed (a thrown error's first line).
  COMPILER_FAILED_WHILE: ({ during }: { during: ActivityCode }) =>
    `NOT COMPILED — the compiler failed while ${ACTIVITIES[during]}`,
  RAN_OUT_OF_STACK: ({ reason }: { reason: string }) =>
    `It ran out of stack space (${reason}), which usually means an input list is longer than it can handle.`,
  RAN_OUT_OF_MEMORY: ({ reason }: { reason: string }) => `It ran out of memory (${reason}).`,
  SQLITE_NOT_LOADED: ({ reason }: { reason: string }) =>
    `SQLite's WebAssembly file could not be loaded (${reason.replace(/\.$/, '')}). Check the connection, or reload once the app has been visited online.`,
  CALL_FAILED: ({ reason }: { reason: string }) =>
    `${reason.charAt(0).toUpperCase()}${reason.slice(1)}${/[.!?…]$/.test(reason) ? '' : '.'}`,
  NO_REASON_GIVEN: () => 'No reason was given.',
  COMPILER_NOT_STARTED: ({ failure }: { failure: string }) =>
    `The compiler could not start in this browser. ${failure}`,
  COMPILER_LOST_RESTORING: ({ reason }: { reason: string }) =>
    `The compiler stopped again while your workspace was being restored: ${reason}.`,

  // Where the workspace is kept.
  DATABASE_NO_OPFS: () =>
    'This browser cannot keep the workspace database on disk (no Origin Private File System access from workers): every reload reads, parses and indexes the loaded files again, which is slower.',
  DATABASE_OTHER_TAB: () =>
    'This workspace is open in another tab, which holds its database. This tab works on a copy in memory, slower to load, and saves nothing: close the other tab and reload to work on the saved workspace here.',
  DATABASE_NOT_KEPT: ({ reason }: { reason: string }) =>
    `The workspace database could not be kept on disk (${reason}): every reload reads, parses and indexes the loaded files again, which is slower.`,
  DATABASE_NOT_SAVED: () =>
    'The workspace database could not be saved on disk (its site data may have been cleared while the page was open): it is kept in memory, so a reload will read, parse and index the loaded files again, which is slower.',
  DATABASE_IN_MEMORY: () =>
    'The workspace database is kept in memory: every reload reads, parses and indexes the loaded files again, which is slower.',
  STORAGE_FULL: () =>
    'Browser storage is full: loaded files and edits will not survive a reload. Free some space or reset.',
  DATABASE_SAVE_FAILED: ({ reason }: { reason: string }) =>
    `The workspace database could not be saved on disk (${reason}): everything is loaded, but a reload will read, parse and index the loaded files again.`,
  RECORDS_NOT_KEPT: ({ reason }: { reason: string }) =>
    `The loaded records could not be kept in the workspace database (${reason}): they are loaded, but a reload will read, parse and index their files again.`,
  DATABASE_FULL: ({ needed, free }: { needed: string; free: string | null }) =>
    `Browser storage is full: keeping the workspace database on disk needs about ${needed}${free === null ? '' : `, and the browser allows this site ${free} more`}. Everything is loaded, but a reload will read, parse and index the loaded files again. Free some space (or reset the workspace) and load the files again to keep them.`,
  WORKSPACE_FULL: ({ needed, free }: { needed: string; free: string | null }) =>
    `Browser storage is full: saving the loaded files needs about ${needed}${free === null ? '' : ` (the browser allows this site ${free} more)`}, so loaded files and edits will not survive a reload. Free some space or reset.`,
  STORAGE_TIMED_OUT: ({ seconds }: { seconds: number }) =>
    `Browser storage did not answer within ${seconds} seconds: working in memory only, so loaded files and edits will not survive a reload. Reload the page to try storage again.`,
  STORAGE_NOT_ALLOWED: () =>
    'Browser storage (IndexedDB) is not allowed here (a private window or a site setting can refuse it): working in memory only, so loaded files and edits will not survive a reload.',
  STORAGE_FAILED: ({ reason }: { reason: string }) =>
    `Browser storage failed (${reason}): loaded files and edits will not survive a reload.`,
  STORAGE_CLEARED: () =>
    'Browser storage was cleared while this page was open. Your loaded files and contract edits are still here, but nothing is saved now: they will be gone after a reload unless you save them again.',
} as const;

export type MessageCode = keyof typeof MESSAGES;
type MessageArgs<C extends MessageCode> = Parameters<(typeof MESSAGES)[C]>;
/** The arguments a code is worded with, as a call passes them: none for a message that takes none. */
export type MessageArgList<C extends MessageCode> = MessageArgs<C> extends [] ? [] : [MessageArgs<C>[0]];

/**
 * A message as data: its code and the arguments the catalogue words it with (`{}` for one that takes none), so a
 * caller can read, compare or redact by argument, and `wordMessage(code, args)` is its text.
 */
export type MessageWords = {
  readonly [C in MessageCode]: {
    readonly code: C;
    readonly args: MessageArgs<C> extends [] ? Readonly<Record<string, never>> : MessageArgs<C>[0];
  };
}[MessageCode];

/** A message in words: the catalogue's wording of the code with its arguments. */
export function wordMessage<C extends MessageCode>(code: C, ...[args]: MessageArgList<C>): string {
  return (MESSAGES[code] as (given: unknown) => string)(args);
}

/** The text of a message carried as data. */
export function wordsText(words: MessageWords): string {
  return (MESSAGES[words.code] as (given: unknown) => string)(words.args);
}

/** An error's own words (a driver's, the file system's): wording from outside the catalogue, passed as an argument. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
