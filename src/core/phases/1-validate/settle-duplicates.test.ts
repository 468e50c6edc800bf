import { sha256 } from '../../test-support/sha256';
import { describe, expect, it } from 'vitest';
import { buildContract, buildRecord, errorOf, valueOf } from '../../test-support/builders';
import { settleDuplicates } from './settle-duplicates';
import { parseRecordsJsonl } from './validate';

const contract = buildContract({ denyLabels: ['legal_hold'] });
const visible = (title: string) => JSON.stringify(buildRecord({ id: 'A-1', title }));
const hidden = (title: string) => JSON.stringify(buildRecord({ id: 'A-1', title, access: { labels: ['legal_hold'] } }));
const settle = (...lines: string[]) =>
  settleDuplicates(contract, valueOf(parseRecordsJsonl(sha256, 'r.jsonl', lines.join('\n'))));

describe('records that share an id', () => {
  it('keep the one copy the caller may see, wherever it is, and make the withheld copies unreadable', () => {
    for (const lines of [
      [hidden('secret'), visible('shown')],
      [visible('shown'), hidden('secret')],
      [hidden('secret'), visible('shown'), hidden('other secret')],
    ]) {
      const settled = valueOf(settle(...lines));
      expect(settled.records.map((record) => [record.id, record.title])).toEqual([['A-1', 'shown']]);
      expect(settled.locations.get('A-1')?.line).toBe(lines.indexOf(visible('shown')) + 1);
      expect(settled.unreadable.map((item) => item.issues[0]?.code)).toEqual(lines.slice(1).map(() => 'DUPLICATE_ID'));
      expect(settled.duplicates).toEqual([]);
    }
  });

  it('refuse two copies the caller may see, naming only those', () => {
    const error = errorOf(settle(visible('one'), hidden('secret'), visible('two')));
    expect(error.code).toBe('DUPLICATE_ID');
    expect(error.issues).toEqual([
      expect.objectContaining({ line: 3, path: 'id', message: 'duplicate id "A-1": first defined at line 1' }),
    ]);
  });

  it('keep the first copy when the caller may see none', () => {
    const settled = valueOf(settle(hidden('first'), hidden('second')));
    expect(settled.records.map((record) => record.title)).toEqual(['first']);
    expect(settled.unreadable).toHaveLength(1);
  });
});
