import { emitted, ESC, type Generated, line, lines, nested, record, refused, unread, valid, withField } from './build';
import type { HostileCase } from './manifest';

export function recordCases(): Generated[] {
  const r = (
    file: string,
    about: string,
    text: string | Uint8Array,
    expect: HostileCase['expect'],
    extra: Partial<Generated> = {},
  ): Generated => ({
    file: `records-${file}.jsonl`,
    kind: 'records',
    about,
    text,
    expect,
    ...extra,
  });
  const f = (name: string) => `records-${name}.jsonl`;
  const dupTokens = line(record('R-3', { tokens: 30 })).replace('"tokens":30', '"tokens":30,"tokens":0');
  const dupRoles = line(record('R-2')).replace('"roles":["agent"]', '"roles":["agent"],"roles":["auditor"]');
  const dupEscaped = line(record('R-2', { tokens: 5 })).replace('"tokens":5', '"tokens":5,"tok\\u0065ns":6');
  const bad = (field: string, value: unknown) => lines(...valid('R-1'), withField('R-2', field, value));
  const many = Array.from({ length: 5_000 }, (_, index) =>
    line(record(`M-${index}`, { text: `m ${index}`, title: `t${index}` })),
  );
  return [
    r(
      'bom',
      'A UTF-8 byte order mark before the first line',
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(lines(...valid('R-1', 'R-2')))]),
      emitted,
    ),
    r('crlf', 'Windows line endings', `${valid('R-1', 'R-2').join('\r\n')}\r\n`, emitted),
    r(
      'blank-lines',
      'Blank and whitespace-only lines between records',
      `\n${valid('R-1').join('')}\n\n   \n${valid('R-2').join('')}\n\n`,
      emitted,
    ),
    r('no-final-newline', 'The last line has no newline', valid('R-1', 'R-2').join('\n'), emitted),
    r(
      'dup-key-tokens',
      'A key given twice keeps the last silently in JSON.parse: "tokens":30,"tokens":0',
      lines(...valid('R-1', 'R-2'), dupTokens),
      unread(f('dup-key-tokens'), 3, 'tokens', 'duplicate key "tokens"'),
    ),
    r(
      'dup-key-nested',
      'A nested key given twice',
      lines(...valid('R-1'), dupRoles),
      unread(f('dup-key-nested'), 2, 'access.roles', 'duplicate key "roles"'),
    ),
    r(
      'dup-key-escaped',
      'The same key spelled with an escape',
      lines(...valid('R-1'), dupEscaped),
      unread(f('dup-key-escaped'), 2, 'tokens', 'duplicate key "tokens"'),
    ),
    r(
      'dup-id',
      'Two records with one id',
      lines(...valid('R-1', 'R-2', 'R-1')),
      refused(f('dup-id'), 3, 'id', 'duplicate id "R-1": first defined at line 1', 'DUPLICATE_ID'),
    ),
    r(
      'truncated-last',
      'The last line cut off mid-string',
      lines(...valid('R-1'), line(record('R-2')).slice(0, 60)).slice(0, -1),
      unread(f('truncated-last'), 2, '(root)', 'not valid JSON'),
    ),
    r(
      'truncated-only',
      'The only line cut off',
      line(record('R-1')).slice(0, 80),
      unread(f('truncated-only'), 1, '(root)', 'not valid JSON', 2),
    ),
    r(
      'garbage-line',
      'A line of text among records',
      lines(...valid('R-1'), 'this is not json', ...valid('R-2')),
      unread(f('garbage-line'), 2, '(root)', 'not valid JSON'),
    ),
    r(
      'trailing-comma',
      'A trailing comma',
      lines(...valid('R-1'), line(record('R-2')).replace(/}$/, ',}')),
      unread(f('trailing-comma'), 2, '(root)', 'not valid JSON'),
    ),
    r(
      'single-quotes',
      'Single-quoted strings',
      lines(...valid('R-1'), line(record('R-2')).replaceAll('"', "'")),
      unread(f('single-quotes'), 2, '(root)', 'not valid JSON'),
    ),
    r(
      'nan',
      'NaN is not JSON',
      lines(...valid('R-1'), line(record('R-2', { tokens: 7 })).replace('"tokens":7', '"tokens":NaN')),
      unread(f('nan'), 2, '(root)', 'not valid JSON'),
    ),
    r(
      'unknown-field',
      'A field the format does not have',
      bad('owner', 'x'),
      unread(f('unknown-field'), 2, '(root)', 'unknown field "owner"'),
    ),
    r(
      'unknown-field-escape',
      'An unknown field whose name carries terminal escapes',
      bad(`x${ESC}`, 1),
      unread(f('unknown-field-escape'), 2, '(root)', 'unknown field "x\\u001b]0;owned\\u0007\\u001b[2J"'),
    ),
    r(
      'id-escape',
      'A valid id carrying terminal escape sequences (printed escaped)',
      lines(...valid('R-1'), line(record(`R${ESC}`))),
      emitted,
    ),
    r(
      'id-bidi',
      'An id with a right-to-left override: an identifier holds no bidi control',
      lines(...valid('R-1'), withField('R-2', 'id', 'R-\u202egnp.exe')),
      unread(f('id-bidi'), 2, 'id', 'holds U+202E'),
    ),
    r(
      'id-whitespace',
      'An id with a space',
      lines(...valid('R-1'), withField('R-2', 'id', 'R 2')),
      unread(f('id-whitespace'), 2, 'id'),
    ),
    r(
      'id-too-long',
      'An id of 201 characters',
      lines(...valid('R-1'), withField('R-2', 'id', 'x'.repeat(201))),
      unread(f('id-too-long'), 2, 'id'),
    ),
    r('id-empty', 'An empty id', lines(...valid('R-1'), withField('R-2', 'id', '')), unread(f('id-empty'), 2, 'id')),
    r('id-number', 'A numeric id', lines(...valid('R-1'), withField('R-2', 'id', 2)), unread(f('id-number'), 2, 'id')),
    r(
      'missing-text',
      'A record without text',
      lines(...valid('R-1'), line((({ text: _text, ...rest }) => rest)(record('R-2')))),
      unread(f('missing-text'), 2, 'text', 'required field missing'),
    ),
    r('tokens-negative', 'Negative tokens', bad('tokens', -1), unread(f('tokens-negative'), 2, 'tokens', '(got -1)')),
    r('tokens-float', 'Fractional tokens', bad('tokens', 1.5), unread(f('tokens-float'), 2, 'tokens')),
    r('tokens-huge', 'Tokens past the limit', bad('tokens', 1e308), unread(f('tokens-huge'), 2, 'tokens')),
    r(
      'tokens-string',
      'Tokens as a string',
      bad('tokens', '30'),
      unread(f('tokens-string'), 2, 'tokens', '(got "30")'),
    ),
    r(
      'date-feb-30',
      'A date that does not exist',
      bad('knownAt', '2026-02-30'),
      unread(f('date-feb-30'), 2, 'knownAt', '(got "2026-02-30")'),
    ),
    r(
      'date-year-0042',
      'A first-century date is read as itself, not as 1942',
      lines(...valid('R-1'), withField('R-2', 'knownAt', '0042-05-01')),
      emitted,
    ),
    r(
      'date-no-offset',
      'A date-time without an offset',
      bad('validFrom', '2026-08-01T10:00:00'),
      unread(f('date-no-offset'), 2, 'validFrom'),
    ),
    r('date-24h', 'Hour 24', bad('knownAt', '2026-08-01T24:00:00Z'), unread(f('date-24h'), 2, 'knownAt')),
    r(
      'date-offset-25',
      'An offset of +25:00',
      bad('knownAt', '2026-08-01T10:00:00+25:00'),
      unread(f('date-offset-25'), 2, 'knownAt'),
    ),
    r(
      'lifecycle-unknown',
      'A lifecycle state that does not exist',
      bad('lifecycle', 'zombie'),
      unread(f('lifecycle-unknown'), 2, 'lifecycle', '(got "zombie")'),
    ),
    r(
      'review-unknown',
      'A review state that does not exist',
      bad('reviewState', 'blessed'),
      unread(f('review-unknown'), 2, 'reviewState'),
    ),
    r(
      'hash-format',
      'A content hash that is not sha256:<64 hex>',
      bad('provenance', { origin: 'x', contentHash: 'md5:abc' }),
      unread(f('hash-format'), 2, 'provenance.contentHash'),
    ),
    r(
      'hash-mismatch',
      'A content hash of other text: loaded, then excluded by the provenance gate',
      lines(...valid('R-1'), withField('R-2', 'provenance', { origin: 'x', contentHash: `sha256:${'0'.repeat(64)}` })),
      emitted,
    ),
    // A broken link makes only its records inadmissible: the compilation goes on.
    r(
      'supersedes-dangling',
      'Supersedes a record that is not there: that record is excluded, the packet is emitted',
      lines(...valid('R-1'), line(record('R-2', { supersedes: ['NOPE'] }))),
      emitted,
    ),
    r(
      'supersedes-cycle',
      'Two records supersede each other: both are excluded, the packet is emitted',
      lines(
        ...valid('R-1'),
        line(record('R-2', { supersedes: ['R-3'] })),
        line(record('R-3', { supersedes: ['R-2'] })),
      ),
      emitted,
    ),
    r(
      'supersedes-self',
      'A record supersedes itself: it is excluded, the packet is emitted',
      lines(...valid('R-1'), line(record('R-2', { supersedes: ['R-2'] }))),
      emitted,
    ),
    r(
      'supersedes-dangling-withheld',
      'A record the caller may not read supersedes a record that is not there',
      lines(...valid('R-1'), line(record('X-deny-00000', { access: { roles: ['auditor'] }, supersedes: ['NOPE-1'] }))),
      emitted,
    ),
    r(
      'supersedes-cycle-withheld',
      'Two records the caller may not read supersede each other',
      lines(
        ...valid('R-1'),
        line(record('X-deny-1', { access: { roles: ['auditor'] }, supersedes: ['X-deny-2'] })),
        line(record('X-deny-2', { access: { roles: ['auditor'] }, supersedes: ['X-deny-1'] })),
      ),
      emitted,
    ),
    r(
      'supersedes-dangling-required',
      'The required record supersedes a record that is not there: it fails its gate, no packet',
      lines(line(record('R-1', { supersedes: ['NOPE'] })), ...valid('R-2')),
      { exit: 2, code: 'REQUIRED_ILLEGAL', message: 'supersedes NOPE, not among the records' },
    ),
    r(
      'roles-empty',
      'A record nobody may read',
      bad('access', { roles: [], purposes: ['support'], labels: [] }),
      unread(f('roles-empty'), 2, 'access.roles'),
    ),
    r(
      'access-missing',
      'A record without access rules',
      lines(...valid('R-1'), line((({ access: _access, ...rest }) => rest)(record('R-2')))),
      unread(f('access-missing'), 2, 'access', 'required field missing'),
    ),
    r('evidence-string', 'Evidence as a string', bad('evidence', 'yes'), unread(f('evidence-string'), 2, 'evidence')),
    r(
      'relevance-string',
      'Relevance as a string',
      bad('relevance', 'high'),
      unread(f('relevance-string'), 2, 'relevance'),
    ),
    r(
      'deep-nesting',
      'A field nested 100,000 levels deep',
      lines(...valid('R-1'), line(record('R-2')).replace('"relevance":null', `"relevance":${nested(100_000)}`)),
      unread(f('deep-nesting'), 2, 'relevance[0][0][0][0][0][0][0]', 'nested deeper than the format allows'),
    ),
    r(
      'proto-key',
      'A __proto__ key in a record',
      lines(...valid('R-1'), line(record('R-2')).replace('{', '{"__proto__":{"polluted":true},')),
      unread(f('proto-key'), 2, '(root)', 'unknown field "__proto__"'),
    ),
    r(
      'constructor-key',
      'A constructor key in a record',
      bad('constructor', { prototype: {} }),
      unread(f('constructor-key'), 2, '(root)', 'unknown field "constructor"'),
    ),
    r('array-line', 'A line that is an array', lines(...valid('R-1'), '[1,2,3]'), unread(f('array-line'), 2, '(root)')),
    r('null-line', 'A line that is null', lines(...valid('R-1'), 'null'), unread(f('null-line'), 2, '(root)')),
    r(
      'control-text',
      'Control characters and NUL in the text (valid; printed escaped)',
      lines(...valid('R-1'), line(record('R-2', { text: `bell\u0007 nul\u0000 esc${ESC} del\u007f c1\u009b` }))),
      emitted,
    ),
    r(
      'invalid-utf8',
      'Bytes that are not UTF-8 inside a string (read as U+FFFD)',
      new Uint8Array([
        ...new TextEncoder().encode(`${valid('R-1')[0]}\n{"id":"R-2","title":"`),
        0xc3,
        0x28,
        0xff,
        ...new TextEncoder().encode(`",${line(record('R-2')).slice(line(record('R-2')).indexOf('"text"'))}\n`),
      ]),
      emitted,
    ),
    r(
      'lone-surrogate',
      'A lone surrogate escape in the text: not valid Unicode, so it has no canonical form',
      lines(...valid('R-1'), line(record('R-2')).replace(/"text":"[^"]*"/, '"text":"\\ud800 alone"')),
      unread(f('lone-surrogate'), 2, 'text', 'lone UTF-16 surrogate'),
    ),
    r(
      'many-bad-lines',
      '200 bad lines: the first 50 are listed with the total',
      Array.from({ length: 200 }, () => '{"id":1}').join('\n'),
      unread(f('many-bad-lines'), 1, 'id', 'first 50 shown', 2),
      {
        app: { message: 'records-many-bad-lines.jsonl:50: ' },
      },
    ),
    r(
      'line-5001',
      'A bad line after 5,000 good ones keeps its line number',
      lines(...many, withField('M-x', 'tokens', -5)),
      unread(f('line-5001'), 5001, 'tokens', undefined, 2),
    ),
    r(
      'long-title',
      'A 1 MB title (valid)',
      lines(...valid('R-1'), line(record('R-2', { title: 'T'.repeat(1 << 20) }))),
      emitted,
    ),
    r(
      'not-json-at-all',
      'Plain text',
      'Dear team,\nplease find the records attached.\n',
      unread(f('not-json-at-all'), 1, '(root)', 'not valid JSON', 2),
      {
        app: {
          exit: 1,
          at: { file: f('not-json-at-all'), path: '(root)' },
          message: 'not a records JSONL file, contract, scenario or receipt',
        },
      },
    ),
    r(
      'empty',
      'An empty file: no records, so the required record is missing',
      '',
      { exit: 2, code: 'REQUIRED_NOT_FOUND' },
      { app: { exit: 1, code: 'INVALID_INPUT', at: { file: f('empty'), path: '(root)' }, message: 'it is empty' } },
    ),
  ];
}
