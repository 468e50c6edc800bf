import { describe, expect, it } from 'vitest';
import { factContextOf } from '../core/reasons';
import type { TraceRow } from '../core/result';
import { buildContract } from '../core/test-support/builders';
import { filterAndSortTrace } from './trace-windows';

describe('trace windows', () => {
  it('sorts and filters trace rows without losing trace order among ties', () => {
    const row = (id: string, tokens: number, decision: 'selected' | 'excluded'): TraceRow => ({
      id,
      fingerprint: 'f'.repeat(64),
      decision,
      code: 'EXCLUDE_SCOPE',
      fact: 'SCOPE_NOT_ALLOWED',
      args: { scope: `scope-${id}` },
      gates: ['scope'],
      tokens,
      required: false,
      score: null,
      rank: null,
    });
    const rows = [row('b', 5, 'selected'), row('a', 5, 'excluded'), row('c', 1, 'selected')];
    const query = { audience: 'diagnostic' as const, sortKey: 'tokens' as const, descending: false, decision: 'all' as const, code: 'all' as const, text: '' };
    const context = factContextOf(buildContract());
    expect(filterAndSortTrace(rows, query, context).map((r) => r.id)).toEqual(['c', 'b', 'a']);
    expect(filterAndSortTrace(rows, { ...query, decision: 'selected', sortKey: 'id' }, context).map((r) => r.id)).toEqual(['b', 'c']);
    expect(filterAndSortTrace(rows, { ...query, text: 'SCOPE SCOPE-A NOT' }, context).map((r) => r.id)).toEqual(['a']);
  });
});
