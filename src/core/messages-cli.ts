import { ISSUES } from './issues';
import { plural } from './messages-wording';

/** The catalogue's messages of the CLI and the local service: a part of `MESSAGES`. */
export const CLI_MESSAGES = {
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
    `serving ${app ? 'the app and the API' : 'the API only (the app is not built: npm run build)'} at ` +
    `${url}  (Ctrl+C stops)`,
  STOPPING: () => 'stopping: finishing requests under way',
  NO_CASE_MATCHES: ({ filters }: { filters: readonly string[] }) => `no case matches --filter ${filters.join(', ')}`,
  NO_CASE_TO_RUN: () => 'no case to run',
  COVERAGE_UNDER_MINIMUM: ({ dimension, percent, minimum }: { dimension: string; percent: number; minimum: number }) =>
    `coverage of ${dimension} is ${percent}%, under --min-coverage ${minimum}%`,
  WATCHING: ({ folders }: { folders: number }) => `watching ${folders} ${plural(folders, 'folder')} (Ctrl+C stops)`,
  CHANGED_RUNNING_AGAIN: ({ names }: { names: readonly string[] }) => `changed: ${names.join(', ')}; running again`,
  WATCHING_LOADS: ({ schema }: { schema: string }) =>
    `watching ${schema}: compiling again whenever a load changes its records (Ctrl+C stops)`,
  COMPILED_AGAIN: ({ answerKept }: { answerKept: boolean | null }) =>
    answerKept === null
      ? 'a load changed what this view shows: compiled again'
      : `a load changed the records: compiled again, ${answerKept ? 'the last answer used again (no admitted record changed)' : 'answered in full'}`,
  CONNECTION_ENDED: () => 'the connection ended while watching',
  WATCH_NEEDS_DATABASE: () => '--watch compiles again after each load: it needs --database',
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
    `--database takes ${options.join(' and ')} alone: the records are the ones \`context-compiler load\` ` +
    `wrote to the database`,
  JUDGE_NEEDS_RECEIPT: () =>
    '--records and --contract judge a saved receipt: give --receipt FILE (a rehearsal needs a scenario ' +
    'and its late change)',
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
} as const;
