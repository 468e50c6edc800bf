import type { StrategyId, StrategyMetrics } from '../../eval/compare';
import { formatCount } from './format';

/** Chart labels must fit beside a bar; the tables carry the full names. */
export function shortLabel(strategy: StrategyId, overFetch: number): string {
  switch (strategy) {
    case 'naive':
      return 'plain top-k';
    case 'post-filter':
      return 'post-filter';
    case 'post-filter-overfetch':
      return `post-filter ×${overFetch}`;
    case 'compiled':
      return 'compiled';
  }
}

export const percent = (share: number | null) => (share === null ? 'n/a' : `${Math.round(share * 100)} %`);
export const decimal = (value: number | null, digits = 2) => (value === null ? '–' : value.toFixed(digits));
export const count = formatCount;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export function strategyName(row: StrategyMetrics, overFetch: number): string {
  return row.strategy === 'post-filter-overfetch' ? `${row.label} ×${overFetch}` : row.label;
}

/** One strategy's metric cells, shared by every table so a column means the same thing everywhere. */
// Every cell carries its column's name (data-label): on a phone each row becomes a card that shows it.
export function StrategyMetricCells({
  row,
  tokenBudget,
  requiredMissed,
  k,
}: {
  row: StrategyMetrics;
  tokenBudget: number;
  requiredMissed: boolean;
  k: number;
}) {
  return (
    <>
      <td data-column="passed" data-label="passed">
        {row.itemsPassed}
      </td>
      <td data-column="unsafe" data-label="unsafe" className={row.unsafePassed > 0 ? 'bad' : undefined}>
        {row.unsafePassed}
      </td>
      <td data-column="coverage" data-label="coverage (mentioned)">
        {percent(row.coverageMentioned)}
      </td>
      <td data-column="coverage-accepted" data-label="coverage (accepted evidence)">
        {percent(row.coverageSupported)}
      </td>
      <td data-column="recall" data-label={`recall@${k}`}>
        {decimal(row.recallAtK)}
      </td>
      {requiredMissed ? (
        <td
          data-column="required-missed"
          data-label="required missed"
          className={row.requiredMissed.length > 0 ? 'bad' : undefined}
        >
          {row.requiredMissed.length > 0 ? row.requiredMissed.join(', ') : 'none'}
        </td>
      ) : (
        <td data-column="displaced" data-label="displaced citations">
          {row.displacedCitations}
        </td>
      )}
      <td data-column="tokens" data-label="tokens">
        {row.tokensUsed} / {tokenBudget}
      </td>
    </>
  );
}

/** Said under a table whose coverage reads n/a, so nobody takes it for a failure. */
