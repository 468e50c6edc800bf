import { describe, expect, it } from 'vitest';
import { formatTable } from './tables';

describe('formatTable', () => {
  it('lays out 200,000 rows (widths are folded, not spread into Math.max)', () => {
    const rows = Array.from({ length: 200_000 }, (_, index) => [`size ${index}`, String(index)]);
    const lines = formatTable(['size', 'n'], rows).split('\n');
    expect(lines).toHaveLength(200_002);
    expect(lines[200_001]).toBe('size 199999  199999');
  });
});
