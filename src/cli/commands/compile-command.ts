import { sha256InNode } from '../../lib/node-sha256';
import { createWriteStream, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import type { DisclosedView } from '../../core/disclosure';
import { factContextOf, renderFact } from '../../core/reasons';
import { serialiseReceipt } from '../../core/phases/7-attest/attest';
import { receiptStatement, serialiseStatement } from '../../core/statement';
import type { Baselines, CompileOutcome } from '../../core/result';
import { serialiseUserView, type UserView } from '../../core/user-view';
import { detailOf, type CompileDetail } from '../../lib/answers';
import { library } from '../library';
import { EXIT, type ExitCode } from '../command';
import type { CompileError, Result } from '../../core/errors';
import { wordMessage } from '../../core/messages';
import type { DatabaseCompile } from '../../adapters/postgres/compile-in-database';
import {
  adapterLine,
  answerLine,
  compileContractInDatabase,
  databaseErrorExit,
  databaseOptionSpec,
  watchContractInDatabase,
} from '../database';
import { loadInputs } from '../load-inputs';
import { readingFiles } from '../read-file';
import { defineCommand } from '../define-command';
import { attestationSchema, audienceSchema, inputOptionSpec, noPositionals } from '../options';
import { renderOutcome, renderUnreadable, reportError } from '../render';

const options = {
  ...inputOptionSpec,
  ...databaseOptionSpec,
  trace: { type: 'boolean', default: false },
  attest: { type: 'string' },
  limit: { type: 'string' },
  'receipt-out': { type: 'string' },
  'packet-out': { type: 'string' },
  'statement-out': { type: 'string' },
  'user-view-out': { type: 'string' },
  'trace-out': { type: 'string' },
  quiet: { type: 'boolean', default: false },
  watch: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** Outputs that carry the diagnostic receipt, which names every record: never written from the user view. */
const DIAGNOSTIC_ONLY = ['receipt-out', 'statement-out', 'trace-out'] as const;

export const compileCommand = defineCommand({
  name: 'compile',
  summary: 'compile a scenario (default: retry-policy) or records + contract into a packet and receipt',
  usage: `usage: context-compiler compile [--scenario ID|PATH] [--control ID]... [--late-change ID]...
       context-compiler compile --records FILE.jsonl --contract FILE.json
       context-compiler compile --database postgres://… --contract FILE.json
options:
  --scenario ID|PATH   a built-in scenario id (retry-policy, atlas-credit-review, refund-desk) or a scenario file
  --control ID         switch on one of the scenario's controls (repeatable)
  --late-change ID     apply one of the scenario's declared late changes (repeatable)
  --database TARGET    admit and rank in PostgreSQL (a URL, key=value string or env: see load --help), over the records \`load\` wrote there (Node only)
  --schema NAME        the database schema holding them (default context_compiler)
  --watch              with --database: compile, then again after every load that changes the records, until
                       Ctrl+C (a change no admitted record sees costs a recount, not a compile)
  --view user|diagnostic  default diagnostic. user: every output is the user view, which counts but never
                       names records excluded for authorisation or deny reasons, and shows the user-view id
                       instead of the receipt id
  --attest full|candidates  full: one receipt row per record (the default for files). candidates: rows only
                       for the required records, the admitted evidence and the ranked candidates down to the
                       budget cut, with the other records counted per reason code (the default with --database:
                       a receipt whose size follows the answer)
  --trace              also print the decision on every record (one row each: reason, boundary fact, score)
  --limit N            also print the first N rows of that table (the text output prints a summary and the
                       packet by default; --json always holds every row)
  --json               print the result as JSON (user view: the user-view document instead of the receipt)
  --receipt-out FILE   write the receipt (canonical JSON); diagnostic view only
  --packet-out FILE    write the packet text with its manifest header
  --statement-out FILE write the receipt as an in-toto Statement v1 (subjects: the packet text, the record set);
                       diagnostic view only
  --user-view-out FILE write the user-view document, the same bytes as the app's "Download user view"
  --trace-out FILE     write the compile's trace, one JSON row a line, streamed; diagnostic view only (with
                       --database a candidates compile's rows are its candidates': every record's with --attest full)
  --quiet              no progress line while a records file is read and compiled (shown only on a terminal)
exit: 0 packet emitted · 2 fail-closed, no packet · 1 invalid input or usage`,
  options,
  positionals: noPositionals,
  async run({ values, usageError }, io) {
    const audience = audienceSchema.safeParse(values.view);
    if (!audience.success) return usageError('VIEW_VALUE', { given: String(values.view) });
    const attestation = attestationSchema.safeParse(
      values.attest ?? (values.database === undefined ? 'full' : 'candidates'),
    );
    if (!attestation.success) return usageError('ATTEST_VALUE', { given: String(values.attest) });
    const limit = values.limit === undefined ? null : Number(values.limit);
    if (limit !== null && !(Number.isInteger(limit) && limit >= 0))
      return usageError('LIMIT_ROWS', { given: String(values.limit) });
    const traceRows = values.trace ? Number.POSITIVE_INFINITY : limit;
    const diagnosticOnly = DIAGNOSTIC_ONLY.find((flag) => values[flag] !== undefined);
    if (audience.data === 'user' && diagnosticOnly)
      return usageError('DIAGNOSTIC_ONLY_OPTION', { option: diagnosticOnly });
    const userViewOut = values['user-view-out'] !== undefined;
    if (values.watch && values.database === undefined) return usageError('WATCH_NEEDS_DATABASE');
    if (values.watch && io.untilStopped === undefined) return usageError('RUNS_UNTIL_STOPPED', { what: '--watch' });
    /** Prints one compile and writes the files asked for: its exit code. */
    const report = async (detail: CompileDetail, adapter: DatabaseCompile['adapter'] | null): Promise<ExitCode> => {
      const { outcome, disclosed: view, userView, baselines, diagnosticPacket, packetText } = detail;
      if (view.unreadable.length > 0) io.stderr(renderUnreadable(view));
      const shown = audience.data === 'user' ? userView : null;
      const write = (file: string | undefined, text: string | null) => {
        if (file !== undefined && text !== null) writeFileSync(resolve(io.cwd, file), text);
      };
      write(values['receipt-out'], `${serialiseReceipt(outcome.receipt)}\n`);
      write(values['packet-out'], packetText);
      write(
        values['statement-out'],
        serialiseStatement(receiptStatement(sha256InNode, outcome.receipt, diagnosticPacket)),
      );
      write(values['user-view-out'], userView && serialiseUserView(userView.document));
      if (values['trace-out'] !== undefined) await writeTrace(resolve(io.cwd, values['trace-out']), outcome);
      if (values.json)
        io.stdout(
          `${JSON.stringify({ ...jsonOutcome(outcome, view, shown, baselines, packetText), ...(adapter === null ? {} : { adapter }) }, null, 2)}\n`,
        );
      else {
        io.stdout(renderOutcome(outcome, view, shown, baselines, traceRows));
        // The records the compile did not list, counted per reason: a diagnostic line, as their reasons include
        // those that withhold a record from the user view.
        if (adapter !== null) io.stdout(`${shown === null ? answerLine(outcome) : ''}${adapterLine(adapter)}`);
        if (packetText !== null) io.stdout(`\n${packetText}`);
      }
      return outcome.status === 'packet' ? EXIT.ok : EXIT.failClosed;
    };
    if (values.database !== undefined) {
      const { database, schema, contract } = values;
      if (
        contract === undefined ||
        values.records !== undefined ||
        values.scenario !== undefined ||
        values.control.length > 0 ||
        values['late-change'].length > 0
      ) {
        return usageError('DATABASE_TAKES_ALONE', { options: ['--contract'] });
      }
      /** A database compile's detail, as the view asked for shows it. */
      const detailed = async ({ request, outcome }: DatabaseCompile): Promise<CompileDetail> => {
        // The baselines are a diagnostic comparison, never an input: the same in-memory whole-corpus index as the
        // built-in path, over the records a full compile read back. A candidates compile reads no corpus to index,
        // so it has none.
        const baselines =
          audience.data === 'diagnostic' && attestation.data === 'full'
            ? await library.baselines(request, outcome)
            : null;
        return detailOf(sha256InNode, request, outcome, { view: audience.data, userView: userViewOut, baselines });
      };
      /** A database compile printed: the exit code its outcome or its error gives. */
      const reportCompiled = async (
        compiled: Result<DatabaseCompile, CompileError>,
        detail: CompileDetail | null = null,
      ): Promise<ExitCode> => {
        if (!compiled.ok) {
          reportError(io, compiled.error);
          return databaseErrorExit(compiled.error);
        }
        return report(detail ?? (await detailed(compiled.value)), compiled.value.adapter);
      };
      if (!values.watch)
        return reportCompiled(await compileContractInDatabase(database, schema, contract, io.cwd, attestation.data));
      let compiles = 0;
      let last: ExitCode = EXIT.ok;
      // In the user view a compile is printed only when what that view shows differs from the last one printed: a
      // change to a record it withholds must not show, not even as the same view printed again.
      let shown: string | null = null;
      const watched = await watchContractInDatabase(
        database,
        schema,
        contract,
        io.cwd,
        attestation.data,
        async ({ compiled, answerKept }) => {
          const detail = compiled.ok ? await detailed(compiled.value) : null;
          if (audience.data === 'user') {
            const userView = detail?.userView ?? null;
            const now = userView === null ? reasonLine(compiled) : serialiseUserView(userView.document);
            if (now === shown) return;
            shown = now;
          }
          if (compiles > 0)
            io.stderr(
              `\n${wordMessage('COMPILED_AGAIN', { answerKept: audience.data === 'user' ? null : answerKept })}\n`,
            );
          last = await reportCompiled(compiled, detail);
          if (compiles === 0) io.stderr(`${wordMessage('WATCHING_LOADS', { schema })}\n`);
          compiles += 1;
        },
        io.untilStopped ?? (async () => undefined),
      );
      if (!watched.ok) {
        reportError(io, watched.error);
        return databaseErrorExit(watched.error);
      }
      return last;
    }
    const progress = values.quiet ? undefined : io.progress;
    const loaded = await loadInputs(
      {
        scenario: values.scenario,
        records: values.records,
        contract: values.contract,
        controls: values.control,
        lateChanges: values['late-change'],
      },
      io.cwd,
      progress,
    );
    if (!loaded.ok) {
      reportError(io, loaded.error);
      return EXIT.invalid;
    }
    const inputs = loaded.value;
    const compiled = await readingFiles(async () =>
      library.compileInDetail({
        ...inputs,
        view: audience.data,
        attestation: attestation.data,
        baselines: true,
        userView: userViewOut,
        onCompiling: (records) => progress?.(`compiling ${records.toLocaleString('en')} records`),
      }),
    );
    progress?.(null);
    if (!compiled.ok) {
      reportError(io, compiled.error);
      return compiled.error.pass === 'admit' ? EXIT.failClosed : EXIT.invalid;
    }
    return report(compiled.value, null);
  },
});

/** What an error shows: its code and words (an outcome's is in its user view). */
const reasonLine = (compiled: Result<unknown, CompileError>) =>
  compiled.ok ? '' : `${compiled.error.code}\n${compiled.error.message}`;

/**
 * The trace, a JSON row a line, written as the stream takes it: a file of a row per record never sits in one string.
 */
async function writeTrace(path: string, outcome: CompileOutcome): Promise<void> {
  const out = createWriteStream(path);
  for (const row of outcome.trace) if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

/**
 * `compile --json`: in the user view its counts, failure and packet are the user view's, and the user-view document
 * stands for the receipt.
 */
function jsonOutcome(
  outcome: CompileOutcome,
  view: DisclosedView,
  userView: UserView | null,
  baselines: Baselines | null,
  packetText: string | null,
) {
  const context = factContextOf(outcome.receipt.contract);
  const failure =
    outcome.status === 'fail_closed'
      ? {
          pass: outcome.failure.pass,
          code: outcome.failure.code,
          message: view.failureMessage,
          recordId: userView ? (userView.failure?.recordId ?? undefined) : outcome.failure.recordId,
        }
      : null;
  return {
    status: outcome.status,
    failure,
    packet: packetText,
    evidence: outcome.status === 'packet' ? outcome.evidence : [],
    decisionBlockedBy: outcome.status === 'packet' ? outcome.decisionBlockedBy : [],
    counts: userView ? userView.counts : outcome.counts,
    baselines,
    trace: view.rows.map((row) => ({ ...row, factText: renderFact(row, context) })),
    withheld: view.withheldNotice,
    ...(view.unreadable.length > 0 ? { unreadable: view.unreadable } : {}),
    ...(userView ? { userView: userView.document } : { receipt: outcome.receipt }),
  };
}
