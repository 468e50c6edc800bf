import { describe, expect, it } from 'vitest';
import { rankLookup } from '../../core/ranked';
import { factContextOf } from '../../core/reasons';
import type { TraceRow } from '../../core/result';
import { buildContract } from '../../core/test-support/builders';
import { filterAndSortTrace } from './compile-view';

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
    });
    const rows = [row('b', 5, 'selected'), row('a', 5, 'excluded'), row('c', 1, 'selected')];
    const query = {
      audience: 'diagnostic' as const,
      sortKey: 'tokens' as const,
      descending: false,
      decision: 'all' as const,
      code: 'all' as const,
      text: '',
    };
    const context = factContextOf(buildContract());
    const none = new Map();
    expect(filterAndSortTrace(rows, query, context, none).map((r) => r.id)).toEqual(['c', 'b', 'a']);
    expect(
      filterAndSortTrace(rows, { ...query, decision: 'selected', sortKey: 'id' }, context, none).map((r) => r.id),
    ).toEqual(['b', 'c']);
    expect(filterAndSortTrace(rows, { ...query, text: 'SCOPE SCOPE-A NOT' }, context, none).map((r) => r.id)).toEqual([
      'a',
    ]);
    // Scores are read from the ranking section; an unranked row sorts after every score.
    const ranks = rankLookup([
      { id: 'a', rank: 1, score: 3 },
      { id: 'c', rank: 2, score: 1 },
    ]);
    expect(
      filterAndSortTrace(rows, { ...query, sortKey: 'score', descending: true }, context, ranks).map((r) => r.id),
    ).toEqual(['a', 'c', 'b']);
  });
});
