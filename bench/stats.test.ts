import { describe, expect, it } from 'vitest';
import { formatTable, growthExponent, percentile } from './stats';

describe('percentile', () => {
  it('takes the nearest rank of an unsorted sample', () => {
    const sample = [5, 1, 4, 2, 3];
    expect(percentile(sample, 50)).toBe(3);
    expect(percentile(sample, 95)).toBe(5);
    expect(percentile(sample, 0)).toBe(1);
  });

  it('is NaN for an empty sample', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('growthExponent', () => {
  it('is 1 for linear growth and 2 for quadratic growth', () => {
    expect(growthExponent(1_000, 10, 10_000, 100)).toBeCloseTo(1, 10);
    expect(growthExponent(1_000, 1, 10_000, 100)).toBeCloseTo(2, 10);
  });

  it('is NaN when a measurement is missing', () => {
    expect(growthExponent(1_000, 0, 10_000, 100)).toBeNaN();
  });
});

describe('formatTable', () => {
  it('pads the first column left and the others right', () => {
    expect(
      formatTable(
        ['size', 'ms'],
        [
          ['1k', '3.5'],
          ['100k', '120.0'],
        ],
      ),
    ).toBe(['size     ms', '----  -----', '1k      3.5', '100k  120.0'].join('\n'));
  });
});

describe('formatTable at length', () => {
  it('lays out 200,000 rows (widths are folded, not spread into Math.max)', () => {
    const lines = formatTable(
      ['metric', 'value'],
      Array.from({ length: 200_000 }, (_, index) => [`m${index}`, String(index)]),
    ).split('\n');
    expect(lines).toHaveLength(200_002);
    expect(lines[200_001]).toBe('m199999  199999');
  });
});
