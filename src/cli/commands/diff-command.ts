import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { err, ok, type CompileError } from '../../core/errors';
import { renderDiffText } from '../../core/receipt-diff-text';
import { EXIT, type CliIo, type ExitCode } from '../command';
import { library } from '../library';
import { receiptReadExit } from '../load-inputs';
import { readDocument } from '../read-file';
import { defineCommand } from '../define-command';
import type { PositionalRule } from '../options';
import { reportError } from '../render';

const options = {
  json: { type: 'boolean', default: false },
  limit: { type: 'string', default: '50' },
} as const satisfies ParseArgsConfig['options'];

const twoReceipts: PositionalRule<readonly [string, string]> = ([first, second, ...rest]) =>
  first !== undefined && second !== undefined && rest.length === 0
    ? ok([first, second] as const)
    : err({ code: 'GIVE_TWO_RECEIPTS', args: {} });

function refuse(io: CliIo, error: CompileError): ExitCode {
  reportError(io, error);
  return receiptReadExit(error);
}

export const diffCommand = defineCommand({
  name: 'diff',
  summary: 'what changed between two compilations: contract, records, decisions, evidence, packet',
  usage: `usage: context-compiler diff A.json B.json [--json] [--limit N]
Compares two saved receipts (compile --receipt-out) and lists, from A to B: contract fields that changed,
other receipt fields, records added, removed or changed, each record whose decision or code changed,
evidence slots that changed and the packet's ids in and out and tokens. Lists are in id order.
options:
  --json      print the whole diff as JSON (every entry, no limit)
  --limit N   text only: at most N lines per section, the rest counted (default 50)
Each receipt is checked first, A then B; the first that cannot be used is named, with the reason:
its schema or engine version (STALE_ENGINE_VERSION) or an id its content does not hash to (RECEIPT_INVALID).
exit: 0 compared (identical or not; --json says which) · 3 STALE_ENGINE_VERSION · 2 RECEIPT_INVALID
      · 1 a file that cannot be read as a receipt (missing, not JSON, not the receipt format), or usage`,
  options,
  positionals: twoReceipts,
  async run({ values, positionals, usageError }, io) {
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) return usageError('LIMIT_POSITIVE', { given: String(values.limit) });
    const [before, after] = positionals;
    const [first, second] = await Promise.all([
      readDocument(resolve(io.cwd, before), before),
      readDocument(resolve(io.cwd, after), after),
    ]);
    // Each file checked once, in the order given: the first that cannot be used is the one named.
    if (!first.ok) return refuse(io, first.error);
    if (!second.ok) {
      const firstReceipt = library.readCheckedReceipt(first.value, before);
      return refuse(io, firstReceipt.ok ? second.error : firstReceipt.error);
    }
    const compared = await library.diff(first.value, second.value, [before, after]);
    if (!compared.ok) return refuse(io, compared.error);
    const diff = compared.value;
    io.stdout(values.json ? `${JSON.stringify(diff, null, 2)}\n` : renderDiffText(diff, limit));
    return EXIT.ok;
  },
});
