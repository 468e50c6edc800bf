import { describe, expect, it } from 'vitest';
import { formatCount, formatScore } from './format';

describe('formatScore', () => {
  it('prints tiny bm25 scores legibly instead of 0.000', () => {
    expect(formatScore(0.0000012345)).toBe('1.23 × 10⁻⁶');
    expect(formatScore(-0.00045)).toBe('-4.50 × 10⁻⁴');
    expect(formatScore(2.71828)).toBe('2.72');
    expect(formatScore(0.125)).toBe('0.125');
    expect(formatScore(0)).toBe('0');
    expect(formatScore(null)).toBe('—');
  });
});

describe('formatCount', () => {
  it('groups digits in threes with commas, as toLocaleString("en-GB") does', () => {
    for (const count of [0, 7, 999, 1000, 12345, 100000, 1234567, -4500]) expect(formatCount(count)).toBe(count.toLocaleString('en-GB'));
    expect(formatCount(100000)).toBe('100,000');
  });
});
