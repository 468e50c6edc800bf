import { describe, expect, it } from 'vitest';
import { copyPieces } from './copy-pieces';

describe('copyPieces', () => {
  it('joins rows into pieces of at least the size, the last one shorter, losing and reordering nothing', () => {
    const rows = Array.from({ length: 1000 }, (_, index) => `row ${index}\t${'x'.repeat(index % 7)}\n`);
    const pieces = [...copyPieces(rows, 500)];
    expect(pieces.join('')).toBe(rows.join(''));
    expect(pieces.length).toBeLessThan(rows.length / 20);
    for (const piece of pieces.slice(0, -1)) expect(piece.length).toBeGreaterThanOrEqual(500);
    expect(pieces.at(-1)?.length ?? 0).toBeGreaterThan(0);
  });

  it('yields nothing for no rows, and one piece for rows shorter than the size', () => {
    expect([...copyPieces([], 10)]).toEqual([]);
    expect([...copyPieces(['a\n', 'b\n'], 10)]).toEqual(['a\nb\n']);
  });
});
