import type { CliIo } from './command';
import type { DisclosedView } from '../core/disclosure';
import { formatIssue, type CompileError } from '../core/errors';
import { escapeText } from '../core/format/json-text';
import type { ReceiptVerdict } from '../core/drill';
import { MAX_REPORTED_ISSUES } from '../core/format/input-issues';
import { factContextOf, REASONS, renderFact } from '../core/reasons';
import { renderDiffText } from '../core/receipt-diff-text';
import type { Baselines, CompileOutcome } from '../core/result';
import type { UserView } from '../core/user-view';

/**
 * Left-aligned columns, each as wide as its widest cell; cells are escaped (ids and facts may carry control
 * characters).
 */
export function table(header: readonly string[], unsafeRows: readonly (readonly string[])[]): string {
  const rows = unsafeRows.map((row) => row.map(escapeText));
  // Folded, not spread into Math.max: a spread argument list overflows the stack past about 120,000 rows.
  const widths = header.map((cell, column) =>
    rows.reduce((widest, row) => Math.max(widest, (row[column] ?? '').length), cell.length),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/**
 * An error as `--json` prints it: the phase, code, message (with the catalogue's code and arguments it words) and each
 * issue with its file, line and field.
 */
export function errorJson(error: CompileError) {
  return {
    error: {
      pass: error.pass,
      code: error.code,
      message: error.message,
      words: error.words,
      ...(error.recordId === undefined ? {} : { recordId: error.recordId }),
      issues: error.issues ?? [],
    },
  };
}

/** Reports an error the command stops on: text on stderr, or with `--json` a JSON document on stdout. */
export function reportError(io: CliIo, error: CompileError): void {
  if (io.jsonErrors === true) io.stdout(`${JSON.stringify(errorJson(error), null, 2)}\n`);
  else io.stderr(renderError(error));
}

export function renderError(error: CompileError): string {
  const lines = [`error [${error.pass}] ${error.code}: ${error.message}`];
  for (const issue of error.issues ?? []) lines.push(`  ${formatIssue(issue)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The records the diagnostic view could not read (`EXCLUDE_UNREADABLE`), with file, line and field: none in
 * the user view, which only counts them.
 */
export function renderUnreadable(view: DisclosedView): string {
  if (view.unreadable.length === 0) return '';
  const { length } = view.unreadable;
  const more = length > MAX_REPORTED_ISSUES ? ` (first ${MAX_REPORTED_ISSUES} shown)` : '';
  const lines = [
    `excluded [validate] EXCLUDE_UNREADABLE: ${length} record${length === 1 ? '' : 's'}${more}. ` +
      `${REASONS.EXCLUDE_UNREADABLE.summary}`,
  ];
  for (const item of view.unreadable.slice(0, MAX_REPORTED_ISSUES))
    for (const issue of item.issues) lines.push(`  ${escapeText(formatIssue(issue))}`);
  return `${lines.join('\n')}\n`;
}

const list = (ids: readonly string[]) => (ids.length === 0 ? '-' : ids.join(', '));

/**
 * `view` is the disclosure for the audience; `userView` is given in the user view only, which then names
 * itself by its user-view id and counts its own rows. `baselines` only in the diagnostic view: their
 * whole-corpus scores are shaped by records a user may not see.
 */
export function renderOutcome(
  outcome: CompileOutcome,
  view: DisclosedView,
  userView: UserView | null,
  baselines: Baselines | null,
  traceRows: number | null,
): string {
  const receipt = outcome.receipt;
  const context = factContextOf(receipt.contract);
  const compiledSelected = outcome.status === 'packet' ? outcome.packet.entries.map((entry) => entry.id) : [];
  const out: string[] = [];
  if (outcome.status === 'packet') {
    const { tokensUsed, tokenBudget } = outcome.packet;
    out.push(`PACKET EMITTED: ${compiledSelected.length} records, ${tokensUsed} / ${tokenBudget} tokens`, '');
  } else {
    const { pass, code } = outcome.failure;
    out.push(`FAIL-CLOSED [${pass}] ${code}: no packet emitted\n  ${view.failureMessage ?? ''}`, '');
  }
  const compiledRow = [
    'compiled',
    `${compiledSelected.length}`,
    `${receipt.tokensUsed} / ${receipt.contract.tokenBudget}`,
    '0',
    outcome.status === 'packet' ? '-' : 'no packet',
  ];
  const packetRows =
    baselines === null
      ? [compiledRow]
      : [
          [
            'naive top-k',
            `${baselines.naive.selected.length}`,
            `${baselines.naive.tokensUsed} / ${baselines.naive.tokenBudget}`,
            String(baselines.naive.illegal.length),
            list(baselines.naive.requiredMissed),
          ],
          [
            'post-filter top-k',
            `${baselines.postFilter.selected.length}`,
            `${baselines.postFilter.tokensUsed} / ${baselines.postFilter.tokenBudget}`,
            String(baselines.postFilter.illegal.length),
            list(baselines.postFilter.requiredMissed),
          ],
          compiledRow,
        ];
  out.push(table(['packet', 'selected', 'tokens', 'illegal', 'required missed'], packetRows));
  if (traceRows !== null) {
    const shown = view.rows.slice(0, traceRows);
    out.push(
      '',
      table(
        ['id', 'decision', 'reason', 'boundary fact', 'tokens', 'req', 'score'],
        shown.map((row) => [
          row.id,
          row.decision,
          row.code,
          renderFact(row, context),
          String(row.tokens),
          row.required ? 'yes' : '',
          view.ranks.get(row.id)?.score.toPrecision(4) ?? '',
        ]),
      ),
    );
    if (shown.length < view.rows.length)
      out.push(
        `… ${(view.rows.length - shown.length).toLocaleString('en')} more rows (--trace for all, --limit N ` +
          `for the first N)`,
      );
  }
  if (view.withheldNotice) out.push(view.withheldNotice);
  if (outcome.status === 'packet' && outcome.evidence.length > 0) {
    out.push(
      '',
      table(
        ['proposition', 'state', 'records', 'not accepted', 'blocking'],
        outcome.evidence.map((slot) => [
          slot.proposition,
          slot.state,
          list([...slot.supporting, ...slot.contradicting]),
          list(slot.notAccepted),
          slot.blocking ? 'yes' : 'no',
        ]),
      ),
    );
    if (outcome.decisionBlockedBy.length > 0)
      out.push(`DECISION BLOCKED: ${outcome.decisionBlockedBy.join(', ')} not established from admitted evidence.`);
  }
  const ranking =
    receipt.ranking.mode === 'bm25'
      ? `bm25 over the admitted set (${receipt.ranking.documents} documents)`
      : 'declared relevance';
  if (userView)
    out.push(
      '',
      `user view ${userView.id}`,
      `selected ${userView.counts.selected} · excluded ${userView.counts.excluded} · withheld ` +
        `${userView.counts.withheld} · ranking ${ranking}`,
    );
  else
    out.push(
      '',
      `receipt ${receipt.receiptId}`,
      `selected ${outcome.counts.selected} · excluded ${outcome.counts.excluded} · ranking ${ranking}`,
    );
  if (baselines === null)
    out.push(
      'naive and post-filter packets: diagnostic view only (they rank with statistics of records this view withholds)',
    );
  return `${out.join('\n')}\n`;
}

export function renderVerdict(verdict: ReceiptVerdict): string {
  const headline =
    verdict.action === 'continue'
      ? 'CURRENT — MAY CONTINUE'
      : verdict.action === 'recompile_required'
        ? 'STALE — RECOMPILE REQUIRED'
        : 'BLOCKED';
  const lines = [`${headline} (${verdict.code})`, `  ${verdict.message}`, `  prior receipt ${verdict.priorReceiptId}`];
  if (verdict.currentReceiptId) lines.push(`  current inputs compile to ${verdict.currentReceiptId}`);
  if (verdict.diff && !verdict.diff.identical) {
    const title =
      verdict.code === 'RECEIPT_MISMATCH'
        ? 'from what the receipt claims to what its declared inputs compile to'
        : 'from the receipt to what the current inputs compile to';
    lines.push('', `  diff ${title}:`);
    for (const line of renderDiffText(verdict.diff).trimEnd().split('\n')) lines.push(line === '' ? '' : `    ${line}`);
  }
  return `${lines.join('\n')}\n`;
}
