import { describe, expect, it } from 'vitest';
import { formatCount, formatScore, plural, titleBesideId } from './format';

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
    for (const count of [0, 7, 999, 1000, 12345, 100000, 1234567, -4500])
      expect(formatCount(count)).toBe(count.toLocaleString('en-GB'));
    expect(formatCount(100000)).toBe('100,000');
  });
});

describe('titleBesideId', () => {
  it('drops a leading copy of the id and its separator, and nothing else', () => {
    expect(titleBesideId('ADR-0234', 'ADR-0234: Bounded exponential reattempts')).toBe(
      'Bounded exponential reattempts',
    );
    expect(titleBesideId('ADR-0234', 'ADR-0234 — Bounded')).toBe('Bounded');
    expect(titleBesideId('ADR-02', 'ADR-0234: Bounded')).toBe('ADR-0234: Bounded');
    expect(titleBesideId('ADR-0234', 'ADR-0234:')).toBe('ADR-0234:');
    expect(titleBesideId('CFG-0310', 'Gateway client deadlines')).toBe('Gateway client deadlines');
  });
});

describe('plural', () => {
  it('writes the count with separators and picks the form by the count', () => {
    expect(plural(1, 'record')).toBe('1 record');
    expect(plural(19969, 'record')).toBe('19,969 records');
  });
});
