import type { Comparison } from './compare';
import type { FoundationReport } from './foundation';
import type { GrowthPoint, GrowthReport } from './growth';

/**
 * Plain-text table: the first column left-aligned, numbers right-aligned, readable in a terminal and in Markdown code
 * blocks.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  // Folded, not spread into Math.max: a spread argument list overflows the stack past about 100,000 rows.
  const widths = header.map((title, column) =>
    rows.reduce((widest, row) => Math.max(widest, (row[column] ?? '').length), title.length),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

const percent = (share: number | null) => (share === null ? 'n/a' : `${Math.round(share * 100)} %`);
const decimal = (value: number | null, digits = 2) => (value === null ? '–' : value.toFixed(digits));

const COMPARISON_HEADER = [
  'strategy',
  'passed',
  'unsafe',
  'coverage (mentioned)',
  'coverage (accepted evidence)',
  'recall@k',
  'displaced citations',
  'tokens',
];

function comparisonRows(comparison: Comparison): string[][] {
  return comparison.rows.map((row) => [
    row.strategy === 'post-filter-overfetch' ? `${row.label} ×${comparison.overFetch}` : row.label,
    String(row.itemsPassed),
    String(row.unsafePassed),
    percent(row.coverageMentioned),
    percent(row.coverageSupported),
    decimal(row.recallAtK),
    String(row.displacedCitations),
    `${row.tokensUsed}/${comparison.tokenBudget}`,
  ]);
}

export function formatComparison(title: string, comparison: Comparison): string {
  const facts = [
    `k = ${comparison.k}`,
    `ranking ${comparison.ranking}`,
    `${comparison.candidates} candidates`,
    `${comparison.admitted} admitted`,
    `${comparison.legalRelevant} legal relevant`,
    `outcome ${comparison.status}`,
    `receipt ${comparison.receiptId.slice(0, 12)}`,
  ].join(', ');
  return `${title}\n${facts}\n\n${formatTable(COMPARISON_HEADER, comparisonRows(comparison))}\n`;
}

/** Timings only when the run had a clock, so a run without one prints the same text every time. */
function timingOf(point: GrowthPoint): string {
  if (point.indexMs === null || point.compareMs === null) return '';
  return `index ${Math.round(point.indexMs)} ms, compile + baselines ${Math.round(point.compareMs)} ms, `;
}

export function formatGrowth(report: GrowthReport): string {
  const header = [
    'records',
    'strategy',
    'passed',
    'unsafe',
    'cov. mentioned',
    'cov. accepted',
    'recall@k',
    'displaced',
    'tokens',
  ];
  const rows = report.points.flatMap((point) =>
    comparisonRows(point).map(([strategy = '', ...rest], index) => [
      index === 0 ? point.size.toLocaleString('en-GB') : '',
      strategy,
      ...rest,
    ]),
  );
  const timings = report.points
    .map(
      (point) =>
        `${point.size.toLocaleString('en-GB')} records: ${timingOf(point)}admitted ${point.admitted} ` +
        `(${point.admittedAsGenerated ? 'exactly the generated legal records' : 'DIFFERS from the generated legal records'}), ` +
        `corpus ${point.corpusDigest.slice(0, 12)}`,
    )
    .join('\n');
  const mix = Object.entries(report.blockMix)
    .map(([category, count]) => `${count} ${category}`)
    .join(', ');
  return `Growth experiment (seed ${report.seed}; every ${report.blockSize} records: ${mix})\n\n${formatTable(header, rows)}\n\n${timings}\n`;
}

export function formatFoundation(report: FoundationReport): string {
  const header = ['mode', 'hit@1', 'recall@3', 'MRR', 'avg candidates', 'filter false negatives'];
  const rows = report.modes.map((mode) => [
    mode.label,
    decimal(mode.hitAt1, 3),
    decimal(mode.recallAt3, 3),
    decimal(mode.mrr, 3),
    decimal(mode.averageCandidates),
    String(mode.filterFalseNegatives),
  ]);
  return `Retrieval foundation (${report.records} records, ${report.queries} queries)\n\n${formatTable(header, rows)}\n`;
}
