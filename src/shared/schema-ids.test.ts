import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withSiteId } from './schema-ids';

const folder = join(import.meta.dirname, '../../public/schema');

describe('withSiteId', () => {
  it('gives every published schema an absolute $id under the site, and changes nothing else', () => {
    for (const file of readdirSync(folder)) {
      const text = readFileSync(join(folder, file), 'utf8');
      const rewritten = JSON.parse(withSiteId(text, file, 'https://example.github.io/context-compiler')) as Record<
        string,
        unknown
      >;
      expect(rewritten.$id).toBe(`https://example.github.io/context-compiler/schema/${file}`);
      expect({ ...rewritten, $id: file }).toEqual(JSON.parse(text));
    }
  });

  it('refuses a schema whose $id is not its own file name, rather than publishing a wrong address', () => {
    expect(() => withSiteId('{"$id":"other.json"}', 'contract.schema.json', 'https://example.org/')).toThrow(
      'contract.schema.json: its $id is "other.json"',
    );
  });
});
