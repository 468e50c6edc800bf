import { describe, expect, it } from 'vitest';
import { capsHeapGrowth } from './heap';

describe('the cap on heap growth', () => {
  it('holds for commands that read their input whole, and not for a load, which streams it', () => {
    for (const command of ['compile', 'drill', 'diff', 'check', 'test', 'eval', 'audit', 'serve'])
      expect(capsHeapGrowth([command, '--records', 'r.jsonl'])).toBe(true);
    expect(capsHeapGrowth([])).toBe(true);
    expect(capsHeapGrowth(['load', '--database', 'postgres://db', '--records', 'r.jsonl'])).toBe(false);
  });

  it('does not hold for a compile the database answers, unless it reads every record back for a full receipt', () => {
    const url = 'postgresql://postgres@localhost/db';
    expect(capsHeapGrowth(['compile', '--database', url, '--contract', 'c.json'])).toBe(false);
    expect(capsHeapGrowth(['compile', `--database=${url}`, '--attest', 'candidates'])).toBe(false);
    expect(capsHeapGrowth(['audit', '--database', url, '--contract', 'c.json'])).toBe(false);
    expect(capsHeapGrowth(['compile', '--database', url, '--attest', 'full'])).toBe(true);
    expect(capsHeapGrowth(['compile', '--database', url, '--attest=full'])).toBe(true);
  });
});
