import { describe, expect, it } from 'vitest';
import { asOfInstant } from './as-of';

describe('the contract as-of', () => {
  it('is an instant in epoch milliseconds, a bare date its start', () => {
    expect(asOfInstant({ asOf: '2026-08-30' })).toBe(Date.UTC(2026, 7, 30));
    expect(asOfInstant({ asOf: '2026-08-30T14:00:00+02:00' })).toBe(Date.UTC(2026, 7, 30, 12));
  });

  it('is refused when it is not an instant, since only validated contracts reach it', () => {
    expect(() => asOfInstant({ asOf: 'tomorrow' })).toThrow(/not an instant/);
  });
});
