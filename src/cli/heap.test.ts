import { describe, expect, it } from 'vitest';
import { capsHeapGrowth } from './heap';

describe('the cap on heap growth', () => {
  it('holds for commands that read their input whole, and not for a load, which streams it', () => {
    for (const command of ['compile', 'drill', 'diff', 'check', 'test', 'eval', 'audit', 'serve', undefined])
      expect(capsHeapGrowth(command)).toBe(true);
    expect(capsHeapGrowth('load')).toBe(false);
  });
});
