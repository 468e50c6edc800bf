import type { ParseArgsConfig } from 'node:util';
import { diffReceipts, renderDiffText } from '../../core/receipt-diff';
import { EXIT, type CliCommand } from '../command';
import { readReceiptFile } from '../load-inputs';
import { parseCommandArgs } from '../options';
import { renderError } from '../render';

const options = {
  json: { type: 'boolean', default: false },
  limit: { type: 'string', default: '50' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

export const diffCommand: CliCommand = {
  name: 'diff',
  summary: 'what changed between two compilations: contract, records, decisions, evidence, packet',
  usage: `usage: context-compiler diff A.json B.json [--json] [--limit N]
Compares two saved receipts (compile --receipt-out) and lists, from A to B: contract fields that changed,
other receipt fields, records added, removed or changed, each record whose decision or code changed,
evidence slots that changed and the packet's ids in and out and tokens. Lists are in id order.
options:
  --json      print the whole diff as JSON (every entry, no limit)
  --limit N   text only: at most N lines per section, the rest counted (default 50)
exit: 0 compared (identical or not; --json says which) · 1 invalid input or usage`,
  async run(args, io) {
    const parsed = parseCommandArgs(args, options);
    if (!parsed.ok) {
      io.stderr(`${parsed.message}\n${this.usage}\n`);
      return EXIT.invalid;
    }
    const { values, positionals } = parsed.value;
    if (values.help) {
      io.stdout(`${this.usage}\n`);
      return EXIT.ok;
    }
    const limit = Number(values.limit);
    if (positionals.length !== 2 || !Number.isInteger(limit) || limit < 1) {
      io.stderr(`${positionals.length !== 2 ? 'give exactly two receipt files' : `--limit must be a positive integer, not ${values.limit}`}\n${this.usage}\n`);
      return EXIT.invalid;
    }
    const [first, second] = await Promise.all(positionals.map((path) => readReceiptFile(path, io.cwd)));
    if (!first || !second) return EXIT.invalid;
    for (const read of [first, second]) {
      if (!read.ok) {
        io.stderr(renderError(read.error));
        return EXIT.invalid;
      }
    }
    if (!first.ok || !second.ok) return EXIT.invalid;
    const diff = diffReceipts(first.value, second.value);
    io.stdout(values.json ? `${JSON.stringify(diff, null, 2)}\n` : renderDiffText(diff, limit));
    return EXIT.ok;
  },
};
