import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { layoutTypes } from './array-parsers';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';

const parserOf = pg.types.getTypeParser as (oid: number, format: 'text') => (text: string) => unknown;
const driverParser = parserOf(1009, 'text');
const driverIntegerParser = parserOf(1007, 'text');
const { parseTextArray, parseIntegerArray } = layoutTypes(pg.types);

/** Elements the server prints bare and elements it must quote or mark: each kind of case the parser tells apart. */
const ELEMENTS: readonly (string | null)[] = [
  'role:analyst',
  'a',
  'é😀',
  '',
  'NULL',
  'null',
  'Null',
  'NULLS',
  null,
  'two words',
  'tab\there',
  'a,b',
  'quote"d',
  'back\\slash',
  '{brace}',
  'trailing ',
  'x'.repeat(200),
];

/** How PostgreSQL's array_out prints a one-dimensional `text[]`. */
function printed(elements: readonly (string | null)[]): string {
  const element = (value: string | null) => {
    if (value === null) return 'NULL';
    const quoted = value === '' || /[{},"\\ \t\n\v\f\r]/.test(value) || value.toUpperCase() === 'NULL';
    return quoted ? `"${value.replace(/["\\]/g, (character) => `\\${character}`)}"` : value;
  };
  return `{${elements.map(element).join(',')}}`;
}

function* arrays(): Generator<(string | null)[]> {
  yield [];
  for (const one of ELEMENTS) yield [one];
  for (const first of ELEMENTS) for (const second of ELEMENTS) yield [first, second, 'plain'];
}

describe('a text[] as the server prints it', () => {
  it('is read as the driver reads it, for every kind of element', () => {
    for (const elements of arrays()) {
      const text = printed(elements);
      expect({ text, parsed: parseTextArray(text) }).toEqual({ text, parsed: driverParser(text) });
      expect(parseTextArray(text)).toEqual(elements);
    }
  });

  it('takes a form it does not read itself to the driver: two dimensions, other bounds', () => {
    for (const text of ['{{a,b},{c,d}}', '[0:1]={a,b}', '{"a,b",c}'])
      expect(parseTextArray(text)).toEqual(driverParser(text));
  });
});

describe('an integer[] as the server prints it', () => {
  it('is read as the driver reads it: empty, signed, a NULL, two dimensions', () => {
    for (const text of [
      '{}',
      '{0}',
      '{1,2,3}',
      '{-7,2147483647,-2147483648}',
      '{1,NULL,3}',
      '{{1,2},{3,4}}',
      '[0:1]={5,6}',
    ])
      expect({ text, parsed: parseIntegerArray(text) }).toEqual({ text, parsed: driverIntegerParser(text) });
  });
});

describe.skipIf(POSTGRES_URL === undefined)('a text[] read from the server', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });

  it('comes back as it was written, through a connection of this adapter', async () => {
    const written = [...arrays()];
    const { rows } = await database.query<{ list: (string | null)[] }>(
      'SELECT list FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(value, n), ' +
        'LATERAL (SELECT array(SELECT jsonb_array_elements_text(e.value))::text[] AS list) l ORDER BY e.n',
      [JSON.stringify(written)],
    );
    expect(rows.map((row) => row.list)).toEqual(written);
  });

  it('and an integer[] too', async () => {
    const { rows } = await database.query<{ list: (number | null)[] }>(
      "SELECT '{3,-1,NULL,2147483647}'::integer[] AS list UNION ALL SELECT '{}'::integer[]",
    );
    expect(rows.map((row) => row.list)).toEqual([[3, -1, null, 2147483647], []]);
  });
});
