import type { ParseArgsConfig } from 'node:util';
import { wordMessage } from '../../core/messages';
import { resolve } from 'node:path';
import type { ReceiptVerdict } from '../../core/drill';
import type { CompileError, Result } from '../../core/errors';
import type { DrillVerdict } from '../../core/result';
import { EXIT, type CliIo, type ExitCode } from '../command';
import { library } from '../library';
import { readDocument, readingFiles } from '../read-file';
import { loadInputs, loadScenarioArgument, readCheckedReceipt, readReceiptFile, receiptReadExit } from '../load-inputs';
import { databaseErrorExit, databaseOptionSpec, drillContractInDatabase } from '../database';
import { defineCommand } from '../define-command';
import { inputOptionSpec, noPositionals } from '../options';
import { renderVerdict, reportError } from '../render';

const { scenario, records, contract, control, json } = inputOptionSpec;
const options = {
  scenario,
  records,
  contract,
  control,
  change: { type: 'string', multiple: true, default: [] },
  receipt: { type: 'string' },
  json,
  ...databaseOptionSpec,
} as const satisfies ParseArgsConfig['options'];

function exitFor(verdict: DrillVerdict): ExitCode {
  if (verdict.action === 'continue') return EXIT.ok;
  return verdict.action === 'recompile_required' ? EXIT.recompileRequired : EXIT.failClosed;
}

function showVerdict(verdict: ReceiptVerdict, json: boolean, io: { stdout(text: string): void }): ExitCode {
  const { userDiff: _userDiff, ...shown } = verdict;
  io.stdout(json ? `${JSON.stringify(shown, null, 2)}\n` : renderVerdict(verdict));
  return exitFor(verdict);
}

/**
 * Reads the receipt file and shows the library's verdict on it; a file that cannot be read, or inputs that cannot, are
 * the error.
 */
async function judge(
  io: CliIo,
  path: string,
  json: boolean,
  verdictOn: (receipt: { receipt: string; receiptFile: string }) => Promise<Result<ReceiptVerdict, CompileError>>,
): Promise<ExitCode> {
  const text = await readDocument(resolve(io.cwd, path), path);
  const verdict = text.ok
    ? await readingFiles(async () => verdictOn({ receipt: text.value, receiptFile: path }))
    : text;
  if (!verdict.ok) {
    reportError(io, verdict.error);
    return receiptReadExit(verdict.error);
  }
  return showVerdict(verdict.value, json, io);
}

export const drillCommand = defineCommand({
  name: 'drill',
  summary: 'fire drill: may work continue on a receipt after a declared late change?',
  usage: `usage: context-compiler drill [--scenario ID|PATH] [--control ID]... [--change ID]...
       context-compiler drill --receipt FILE --scenario ID|PATH [--control ID]... [--change ID]...
       context-compiler drill --receipt FILE --records FILE.jsonl --contract FILE.json
       context-compiler drill --receipt FILE --database postgres://… [--schema NAME] --contract FILE.json
Without --receipt, rehearses the whole drill on a scenario (default: retry-policy): compile and freeze a
receipt, declare the late change (default: the scenario's first), attempt to continue (must be refused),
recompile, continue.
With --receipt, judges that saved receipt against the current inputs you give (a scenario, a records file
and a contract, or a database and a contract): it is current only when compiling its declared inputs, which
must be the current ones with the declared changes applied, reproduces it byte for byte. A receipt whose
claims its own inputs contradict is RECEIPT_MISMATCH (blocked); a stale one is shown with the diff from it
to the current inputs. docs/FORMAT.md says what each verdict establishes.
With --database, the current inputs are the contract file and the records \`load\` wrote to the database
(schema default context_compiler), and every compile runs in PostgreSQL; there is no scenario to rehearse.
exit: 0 continue · 3 stale, recompile required · 2 blocked · 1 invalid input or usage`,
  options,
  positionals: noPositionals,
  async run({ values, usageError }, io) {
    if (values.database !== undefined) {
      if (
        values.receipt === undefined ||
        values.contract === undefined ||
        values.scenario !== undefined ||
        values.records !== undefined ||
        values.control.length > 0 ||
        values.change.length > 0
      ) {
        return usageError('DATABASE_TAKES_ALONE', { options: ['--receipt', '--contract'] });
      }
      const receipt = await readReceiptFile(values.receipt, io.cwd);
      if (!receipt.ok) {
        reportError(io, receipt.error);
        return receiptReadExit(receipt.error);
      }
      const verdict = await drillContractInDatabase(
        values.database,
        values.schema,
        values.contract,
        receipt.value,
        io.cwd,
      );
      if (!verdict.ok) {
        reportError(io, verdict.error);
        return databaseErrorExit(verdict.error);
      }
      return showVerdict(verdict.value, values.json, io);
    }
    if (values.records !== undefined || values.contract !== undefined) {
      if (values.receipt === undefined) return usageError('JUDGE_NEEDS_RECEIPT');
      if (values.control.length > 0 || values.change.length > 0) return usageError('DRILL_SWITCHES_NEED_SCENARIO');
      const loaded = await loadInputs(
        {
          scenario: values.scenario,
          records: values.records,
          contract: values.contract,
          controls: [],
          lateChanges: [],
        },
        io.cwd,
      );
      if (!loaded.ok) {
        reportError(io, loaded.error);
        return EXIT.invalid;
      }
      const inputs = loaded.value;
      return judge(io, values.receipt, values.json, async (receipt) =>
        library.drill({ ...inputs, ...receipt, declaredChanges: [] }),
      );
    }
    if (values.receipt !== undefined && values.scenario === undefined) {
      // The receipt alone can still be checked against itself; there is nothing else to judge it against.
      const receipt = await readCheckedReceipt(values.receipt, io.cwd);
      if (!receipt.ok) {
        reportError(io, receipt.error);
        return receiptReadExit(receipt.error);
      }
      return usageError('NOTHING_TO_JUDGE', { receipt: values.receipt });
    }
    const loaded = await loadScenarioArgument(values.scenario, io.cwd);
    if (!loaded.ok) {
      reportError(io, loaded.error);
      return EXIT.invalid;
    }
    const scenario = loaded.value.scenario;
    const firstChange = scenario.lateChanges[0];
    const declared =
      values.change.length > 0 ? values.change : values.receipt === undefined && firstChange ? [firstChange.id] : [];
    const current = { scenario: loaded.value, controls: values.control, lateChanges: declared };
    // Read only: the drill checks the receipt's versions and id first itself, and answers with a verdict.
    if (values.receipt !== undefined)
      return judge(io, values.receipt, values.json, async (receipt) =>
        library.drill({ ...current, ...receipt, declaredChanges: declared }),
      );

    if (declared.length === 0) {
      io.stderr(`${wordMessage('NO_LATE_CHANGE_TO_REHEARSE', { scenario: scenario.id })}\n`);
      return EXIT.invalid;
    }
    const rehearsal = await library.rehearse(current);
    if (!rehearsal.ok) {
      reportError(io, rehearsal.error);
      return EXIT.invalid;
    }
    const { frozen: prior, stale, recompiled, resumed } = rehearsal.value;
    if (values.json) {
      const shown = ({ userDiff: _userDiff, ...verdict }: ReceiptVerdict) => verdict;
      io.stdout(
        `${JSON.stringify({ frozenReceipt: prior.receiptId, declared, attempt: shown(stale), recompiledReceipt: recompiled.receipt.receiptId, resume: shown(resumed) }, null, 2)}\n`,
      );
    } else {
      io.stdout(
        [
          `1. froze receipt ${prior.receiptId} (${prior.outcome})`,
          `2. declared late change: ${declared.join(', ')}`,
          `3. attempt to continue on the frozen receipt:`,
          renderVerdict(stale).trimEnd(),
          `4. recompiled: receipt ${recompiled.receipt.receiptId} (${recompiled.status}; selected ` +
            `${recompiled.receipt.selected.join(', ') || 'nothing'})`,
          `5. attempt to continue on the new receipt:`,
          renderVerdict(resumed),
        ].join('\n'),
      );
    }
    return exitFor(resumed);
  },
});
