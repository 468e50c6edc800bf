import { describe, expect, it } from 'vitest';
import { componentsOnCycles } from './cycles';

const graph = (edges: Record<string, string[]>) => (id: string) => edges[id] ?? [];

describe('componentsOnCycles', () => {
  it('numbers the nodes of each cycle of two or more, and leaves chains and self-links out', () => {
    const edges = { a: ['b'], b: ['c'], c: ['a'], d: ['a'], e: ['e'], f: ['g'], g: ['f'] };
    const found = componentsOnCycles(Object.keys(edges), graph(edges));
    expect([...found.keys()].sort()).toEqual(['a', 'b', 'c', 'f', 'g']);
    expect(found.get('a')).toBe(found.get('c'));
    expect(found.get('f')).toBe(found.get('g'));
    expect(found.get('a')).not.toBe(found.get('f'));
  });

  it('walks a chain of 100,000 links without recursion', () => {
    const size = 100_000;
    const targetsOf = (id: string) => {
      const next = Number(id) + 1;
      return [next === size ? '0' : String(next)];
    };
    expect(componentsOnCycles(['0'], targetsOf).size).toBe(size);
  });
});
