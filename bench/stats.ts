/** Nearest-rank percentile of a sample (p in 0..100); the sample need not be sorted. */
export function percentile(sample: readonly number[], p: number): number {
  if (sample.length === 0) return Number.NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] ?? Number.NaN;
}

/**
 * How cost grows with size between two measurements: 1 is linear, below 1 is sub-linear.
 * log(t2/t1) / log(n2/n1).
 */
export function growthExponent(n1: number, t1: number, n2: number, t2: number): number {
  if (n1 <= 0 || n2 <= 0 || n1 === n2 || t1 <= 0 || t2 <= 0) return Number.NaN;
  return Math.log(t2 / t1) / Math.log(n2 / n1);
}

/** A plain-text table with right-aligned columns after the first. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) =>
    rows.reduce((widest, row) => Math.max(widest, (row[column] ?? '').length), cell.length),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}
