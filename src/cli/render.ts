import type { Audience } from '../core/disclosure';
import { discloseOutcome } from '../core/disclosure';
import { formatIssue, type CompileError } from '../core/errors';
import type { ReceiptVerdict } from '../core/drill';
import { renderDiffText } from '../core/receipt-diff';
import type { CompileOutcome } from '../core/result';

/** Left-aligned columns, each as wide as its widest cell. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function renderError(error: CompileError): string {
  const lines = [`error [${error.pass}] ${error.code}: ${error.message}`];
  for (const issue of error.issues ?? []) lines.push(`  ${formatIssue(issue)}`);
  return `${lines.join('\n')}\n`;
}

const list = (ids: readonly string[]) => (ids.length === 0 ? '-' : ids.join(', '));

export function renderOutcome(outcome: CompileOutcome, audience: Audience): string {
  const view = discloseOutcome(outcome, audience);
  const receipt = outcome.receipt;
  const compiledSelected = outcome.status === 'packet' ? outcome.packet.entries.map((entry) => entry.id) : [];
  const withheld = (count: number) => (count > 0 ? ` (${count} withheld)` : '');
  const out: string[] = [];
  out.push(
    outcome.status === 'packet'
      ? `PACKET EMITTED: ${compiledSelected.length} records, ${outcome.packet.tokensUsed} / ${outcome.packet.tokenBudget} tokens`
      : `FAIL-CLOSED [${outcome.failure.pass}] ${outcome.failure.code}: no packet emitted\n  ${view.failureMessage ?? ''}`,
    '',
    table(
      ['packet', 'selected', 'tokens', 'illegal', 'required missed'],
      [
        ['naive top-k', `${view.naive.selected.length + view.naive.withheldCount}${withheld(view.naive.withheldCount)}`, `${view.naive.tokensUsed} / ${view.naive.tokenBudget}`, String(outcome.baselines.naive.illegal.length), list(view.naive.requiredMissed)],
        ['post-filter top-k', `${view.postFilter.selected.length}`, `${view.postFilter.tokensUsed} / ${view.postFilter.tokenBudget}`, String(outcome.baselines.postFilter.illegal.length), list(view.postFilter.requiredMissed)],
        ['compiled', `${compiledSelected.length}`, `${receipt.tokensUsed} / ${receipt.tokenBudget}`, '0', outcome.status === 'packet' ? '-' : 'no packet'],
      ],
    ),
    '',
    table(
      ['id', 'decision', 'reason', 'boundary fact', 'tokens', 'req', 'score'],
      view.rows.map((row) => [row.id, row.decision, row.code, row.fact, String(row.tokens), row.required ? 'yes' : '', row.score === null ? '' : row.score.toPrecision(4)]),
    ),
  );
  if (view.withheldNotice) out.push(view.withheldNotice);
  if (outcome.status === 'packet' && outcome.evidence.length > 0) {
    out.push(
      '',
      table(
        ['proposition', 'state', 'records', 'not accepted', 'blocking'],
        outcome.evidence.map((slot) => [slot.proposition, slot.state, list([...slot.supporting, ...slot.contradicting]), list(slot.notAccepted), slot.blocking ? 'yes' : 'no']),
      ),
    );
    if (outcome.decisionBlockedBy.length > 0) out.push(`DECISION BLOCKED: ${outcome.decisionBlockedBy.join(', ')} not established from admitted evidence.`);
  }
  out.push('', `receipt ${receipt.receiptId}`, `selected ${outcome.counts.selected} · excluded ${outcome.counts.excluded} · ranking ${receipt.ranking}`);
  return `${out.join('\n')}\n`;
}

export function renderVerdict(verdict: ReceiptVerdict): string {
  const headline = verdict.action === 'continue' ? 'CURRENT — MAY CONTINUE' : verdict.action === 'recompile_required' ? 'STALE — RECOMPILE REQUIRED' : 'BLOCKED';
  const lines = [`${headline} (${verdict.code})`, `  ${verdict.message}`, `  prior receipt ${verdict.priorReceiptId}`];
  if (verdict.currentReceiptId) lines.push(`  current inputs compile to ${verdict.currentReceiptId}`);
  if (verdict.diff && !verdict.diff.identical) {
    const title = verdict.code === 'RECEIPT_MISMATCH' ? 'from what the receipt claims to what its declared inputs compile to' : 'from the receipt to what the current inputs compile to';
    lines.push('', `  diff ${title}:`, ...renderDiffText(verdict.diff).trimEnd().split('\n').map((line) => (line === '' ? '' : `    ${line}`)));
  }
  return `${lines.join('\n')}\n`;
}

