import { describe, expect, it } from 'vitest';
import { formatScore } from './format';

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
