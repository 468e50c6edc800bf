import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import '../src/shared/jitless-zod';
import { createSqliteCompiler } from '../src/adapters/sqlite/compiler';
import { serialiseReceipt } from '../src/core/phases/7-attest/attest';
import { createRecordSet } from '../src/core/phases/1-validate/validate';
import { buildContract, buildRecord } from '../src/core/test-support/builders';
import { openInMemoryDatabase } from '../src/sqlite/load-sqlite';
import { installSha256InNode } from '../src/cli/node-sha256';

installSha256InNode();

/**
 * The hostile corpus (fixtures/hostile/): files an attacker or an unlucky user could hand the compiler,
 * each with the outcome it must have. `npx tsx scripts/hostile-corpus.ts` writes the generated cases and
 * their manifest entries; entries it does not generate (added by hand) are kept. The CLI, the worker
 * session and the built app run the corpus (src/cli/hostile-corpus.test.ts,
 * src/worker/hostile-corpus.test.ts, e2e/hostile-corpus.spec.ts); docs/TESTING.md says how to add a case.
 */

export const HOSTILE_DIR = fileURLToPath(new URL('../fixtures/hostile/', import.meta.url));
export const MANIFEST_FILE = `${HOSTILE_DIR}manifest.json`;

const expectationSchema = z.strictObject({
  /** CLI exit code: 0 packet (drill: continue), 1 invalid input, 2 fail-closed (drill: blocked), 3 recompile required. */
  exit: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  /** The error code (exit 1), the failure code (exit 2) or the drill verdict code; null for an emitted packet. */
  code: z.string().nullable(),
  /** The file, line and JSON path the first issue must name (exit 1 from validation). */
  at: z.strictObject({ file: z.string(), line: z.number().int().positive().optional(), path: z.string() }).optional(),
  /** Words the message must contain. */
  message: z.string().optional(),
});

export const caseSchema = z.strictObject({
  file: z.string().regex(/^[\w.-]+$/),
  kind: z.enum(['records', 'contract', 'scenario', 'receipt']),
  /** What the case is about, in a line. */
  about: z.string(),
  /** Files loaded together with this one (a scenario's records file). */
  with: z.array(z.string()).default([]),
  /** Controls to switch on after loading (a scenario's patches run only then). */
  controls: z.array(z.string()).default([]),
  expect: expectationSchema,
  /** Where the app must differ from the CLI: it recognises a file from its content, the CLI takes the flag's word. */
  app: expectationSchema.partial().optional(),
  /** Set while a known bug makes the case fail: the tests then require it to fail, so fixing the bug flags the entry. */
  knownBug: z.string().optional(),
});

export const manifestSchema = z.strictObject({
  /** The valid files every case is run against: records under `contract`, a contract over `records`, receipts against `scenario`. */
  base: z.strictObject({ records: z.string(), contract: z.string(), scenario: z.string() }),
  cases: z.array(caseSchema),
});

export type HostileCase = z.output<typeof caseSchema>;
export type HostileManifest = z.output<typeof manifestSchema>;

export function readManifest(): HostileManifest {
  return manifestSchema.parse(JSON.parse(readFileSync(MANIFEST_FILE, 'utf8')));
}

// ---------------------------------------------------------------------------------------------------------
// The generated cases.

const BASE = { records: 'base.records.jsonl', contract: 'base.contract.json', scenario: 'base.scenario.json' };
const ESC = '\u001b]0;owned\u0007\u001b[2J';
const record = (id: string, overrides: Parameters<typeof buildRecord>[0] = {}) => buildRecord({ id, ...overrides });
const baseRecords = ['R-1', 'R-2', 'R-3', 'R-4'].map((id) => record(id));
const baseContract = buildContract({ requiredRecords: ['R-1'] });
const baseScenario = {
  id: 'hostile-base',
  title: 'Hostile corpus base',
  contract: baseContract,
  records: baseRecords,
  controls: [{ id: 'tight', label: 'Tight budget', explanation: 'The required record no longer fits.', patches: [{ op: 'mergeContract', patch: { tokenBudget: 1 } }] }],
  lateChanges: [
    { id: 'more', label: 'Require R-2 too', explanation: 'A late change of the contract.', mentions: ['R-2'], patches: [{ op: 'mergeContract', patch: { requiredRecords: ['R-1', 'R-2'] } }] },
  ],
};
const line = (value: unknown) => JSON.stringify(value);
const lines = (...values: string[]) => `${values.join('\n')}\n`;
const valid = (...ids: string[]) => ids.map((id) => line(record(id)));
const withField = (id: string, field: string, value: unknown) => line({ ...record(id), [field]: value });
const contractWith = (patch: Record<string, unknown>) => ({ ...baseContract, ...patch });
const scenarioWith = (patch: Record<string, unknown>) => ({ ...baseScenario, ...patch });
const change = (id: string, patches: unknown[], label = `Change ${id}`) => ({ id, label, explanation: 'Hostile case.', patches });
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

interface Generated {
  readonly file: string;
  readonly kind: HostileCase['kind'];
  readonly about: string;
  readonly text: string | Uint8Array;
  readonly expect: HostileCase['expect'];
  readonly with?: string[];
  readonly controls?: string[];
  readonly app?: HostileCase['app'];
  readonly knownBug?: string;
}

const refused = (file: string, line: number | undefined, path: string, message?: string, code = 'INVALID_INPUT'): HostileCase['expect'] => ({
  exit: 1,
  code,
  at: { file, ...(line === undefined ? {} : { line }), path },
  ...(message === undefined ? {} : { message }),
});
const emitted: HostileCase['expect'] = { exit: 0, code: null };
/** A records line that is not a record: inadmissible, listed with its place in the diagnostic view; the outcome's exit. */
const unread = (file: string, line: number, path: string, message?: string, exit: HostileCase['expect']['exit'] = 0): HostileCase['expect'] => ({
  exit,
  code: 'EXCLUDE_UNREADABLE',
  at: { file, line, path },
  ...(message === undefined ? {} : { message }),
});

function recordCases(): Generated[] {
  const r = (file: string, about: string, text: string | Uint8Array, expect: HostileCase['expect'], extra: Partial<Generated> = {}): Generated => ({
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
  const many = Array.from({ length: 5_000 }, (_, index) => line(record(`M-${index}`, { text: `m ${index}`, title: `t${index}` })));
  return [
    r('bom', 'A UTF-8 byte order mark before the first line', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(lines(...valid('R-1', 'R-2')))]), emitted),
    r('crlf', 'Windows line endings', `${valid('R-1', 'R-2').join('\r\n')}\r\n`, emitted),
    r('blank-lines', 'Blank and whitespace-only lines between records', `\n${valid('R-1').join('')}\n\n   \n${valid('R-2').join('')}\n\n`, emitted),
    r('no-final-newline', 'The last line has no newline', valid('R-1', 'R-2').join('\n'), emitted),
    r(
      'dup-key-tokens',
      'A key given twice keeps the last silently in JSON.parse: "tokens":30,"tokens":0',
      lines(...valid('R-1', 'R-2'), dupTokens),
      unread(f('dup-key-tokens'), 3, 'tokens', 'duplicate key "tokens"'),
    ),
    r('dup-key-nested', 'A nested key given twice', lines(...valid('R-1'), dupRoles), unread(f('dup-key-nested'), 2, 'access.roles', 'duplicate key "roles"')),
    r('dup-key-escaped', 'The same key spelled with an escape', lines(...valid('R-1'), dupEscaped), unread(f('dup-key-escaped'), 2, 'tokens', 'duplicate key "tokens"')),
    r('dup-id', 'Two records with one id', lines(...valid('R-1', 'R-2', 'R-1')), refused(f('dup-id'), 3, 'id', 'duplicate id "R-1": first defined at line 1', 'DUPLICATE_ID')),
    r('truncated-last', 'The last line cut off mid-string', lines(...valid('R-1'), line(record('R-2')).slice(0, 60)).slice(0, -1), unread(f('truncated-last'), 2, '(root)', 'not valid JSON')),
    r('truncated-only', 'The only line cut off', line(record('R-1')).slice(0, 80), unread(f('truncated-only'), 1, '(root)', 'not valid JSON', 2)),
    r('garbage-line', 'A line of text among records', lines(...valid('R-1'), 'this is not json', ...valid('R-2')), unread(f('garbage-line'), 2, '(root)', 'not valid JSON')),
    r('trailing-comma', 'A trailing comma', lines(...valid('R-1'), line(record('R-2')).replace(/}$/, ',}')), unread(f('trailing-comma'), 2, '(root)', 'not valid JSON')),
    r('single-quotes', 'Single-quoted strings', lines(...valid('R-1'), line(record('R-2')).replaceAll('"', "'")), unread(f('single-quotes'), 2, '(root)', 'not valid JSON')),
    r('nan', 'NaN is not JSON', lines(...valid('R-1'), line(record('R-2', { tokens: 7 })).replace('"tokens":7', '"tokens":NaN')), unread(f('nan'), 2, '(root)', 'not valid JSON')),
    r('unknown-field', 'A field the format does not have', bad('owner', 'x'), unread(f('unknown-field'), 2, '(root)', 'unknown field "owner"')),
    r(
      'unknown-field-escape',
      'An unknown field whose name carries terminal escapes',
      bad(`x${ESC}`, 1),
      unread(f('unknown-field-escape'), 2, '(root)', 'unknown field "x\\u001b]0;owned\\u0007\\u001b[2J"'),
    ),
    r('id-escape', 'A valid id carrying terminal escape sequences (printed escaped)', lines(...valid('R-1'), line(record(`R${ESC}`))), emitted),
    r(
      'id-bidi',
      'An id with a right-to-left override: an identifier holds no bidi control',
      lines(...valid('R-1'), withField('R-2', 'id', 'R-\u202egnp.exe')),
      unread(f('id-bidi'), 2, 'id', 'holds U+202E'),
    ),
    r('id-whitespace', 'An id with a space', lines(...valid('R-1'), withField('R-2', 'id', 'R 2')), unread(f('id-whitespace'), 2, 'id')),
    r('id-too-long', 'An id of 201 characters', lines(...valid('R-1'), withField('R-2', 'id', 'x'.repeat(201))), unread(f('id-too-long'), 2, 'id')),
    r('id-empty', 'An empty id', lines(...valid('R-1'), withField('R-2', 'id', '')), unread(f('id-empty'), 2, 'id')),
    r('id-number', 'A numeric id', lines(...valid('R-1'), withField('R-2', 'id', 2)), unread(f('id-number'), 2, 'id')),
    r('missing-text', 'A record without text', lines(...valid('R-1'), line((({ text: _text, ...rest }) => rest)(record('R-2')))), unread(f('missing-text'), 2, 'text', 'required field missing')),
    r('tokens-negative', 'Negative tokens', bad('tokens', -1), unread(f('tokens-negative'), 2, 'tokens', '(got -1)')),
    r('tokens-float', 'Fractional tokens', bad('tokens', 1.5), unread(f('tokens-float'), 2, 'tokens')),
    r('tokens-huge', 'Tokens past the limit', bad('tokens', 1e308), unread(f('tokens-huge'), 2, 'tokens')),
    r('tokens-string', 'Tokens as a string', bad('tokens', '30'), unread(f('tokens-string'), 2, 'tokens', '(got "30")')),
    r('date-feb-30', 'A date that does not exist', bad('knownAt', '2026-02-30'), unread(f('date-feb-30'), 2, 'knownAt', '(got "2026-02-30")')),
    r('date-year-0042', 'A first-century date is read as itself, not as 1942', lines(...valid('R-1'), withField('R-2', 'knownAt', '0042-05-01')), emitted),
    r('date-no-offset', 'A date-time without an offset', bad('validFrom', '2026-08-01T10:00:00'), unread(f('date-no-offset'), 2, 'validFrom')),
    r('date-24h', 'Hour 24', bad('knownAt', '2026-08-01T24:00:00Z'), unread(f('date-24h'), 2, 'knownAt')),
    r('date-offset-25', 'An offset of +25:00', bad('knownAt', '2026-08-01T10:00:00+25:00'), unread(f('date-offset-25'), 2, 'knownAt')),
    r('lifecycle-unknown', 'A lifecycle state that does not exist', bad('lifecycle', 'zombie'), unread(f('lifecycle-unknown'), 2, 'lifecycle', '(got "zombie")')),
    r('review-unknown', 'A review state that does not exist', bad('reviewState', 'blessed'), unread(f('review-unknown'), 2, 'reviewState')),
    r('hash-format', 'A content hash that is not sha256:<64 hex>', bad('provenance', { origin: 'x', contentHash: 'md5:abc' }), unread(f('hash-format'), 2, 'provenance.contentHash')),
    r(
      'hash-mismatch',
      'A content hash of other text: loaded, then excluded by the provenance gate',
      lines(...valid('R-1'), withField('R-2', 'provenance', { origin: 'x', contentHash: `sha256:${'0'.repeat(64)}` })),
      emitted,
    ),
    // A broken link makes only its records inadmissible: the compilation goes on.
    r('supersedes-dangling', 'Supersedes a record that is not there: that record is excluded, the packet is emitted', lines(...valid('R-1'), line(record('R-2', { supersedes: ['NOPE'] }))), emitted),
    r(
      'supersedes-cycle',
      'Two records supersede each other: both are excluded, the packet is emitted',
      lines(...valid('R-1'), line(record('R-2', { supersedes: ['R-3'] })), line(record('R-3', { supersedes: ['R-2'] }))),
      emitted,
    ),
    r('supersedes-self', 'A record supersedes itself: it is excluded, the packet is emitted', lines(...valid('R-1'), line(record('R-2', { supersedes: ['R-2'] }))), emitted),
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
    r('roles-empty', 'A record nobody may read', bad('access', { roles: [], purposes: ['support'], labels: [] }), unread(f('roles-empty'), 2, 'access.roles')),
    r(
      'access-missing',
      'A record without access rules',
      lines(...valid('R-1'), line((({ access: _access, ...rest }) => rest)(record('R-2')))),
      unread(f('access-missing'), 2, 'access', 'required field missing'),
    ),
    r('evidence-string', 'Evidence as a string', bad('evidence', 'yes'), unread(f('evidence-string'), 2, 'evidence')),
    r('relevance-string', 'Relevance as a string', bad('relevance', 'high'), unread(f('relevance-string'), 2, 'relevance')),
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
    r('constructor-key', 'A constructor key in a record', bad('constructor', { prototype: {} }), unread(f('constructor-key'), 2, '(root)', 'unknown field "constructor"')),
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
    r('many-bad-lines', '200 bad lines: the first 50 are listed with the total', Array.from({ length: 200 }, () => '{"id":1}').join('\n'), unread(f('many-bad-lines'), 1, 'id', 'first 50 shown', 2), {
      app: { message: 'records-many-bad-lines.jsonl:50: ' },
    }),
    r('line-5001', 'A bad line after 5,000 good ones keeps its line number', lines(...many, withField('M-x', 'tokens', -5)), unread(f('line-5001'), 5001, 'tokens', undefined, 2)),
    r('long-title', 'A 1 MB title (valid)', lines(...valid('R-1'), line(record('R-2', { title: 'T'.repeat(1 << 20) }))), emitted),
    r('not-json-at-all', 'Plain text', 'Dear team,\nplease find the records attached.\n', unread(f('not-json-at-all'), 1, '(root)', 'not valid JSON', 2), {
      app: { exit: 1, at: { file: f('not-json-at-all'), path: '(root)' }, message: 'not a records JSONL file, contract, scenario or receipt' },
    }),
    r(
      'empty',
      'An empty file: no records, so the required record is missing',
      '',
      { exit: 2, code: 'REQUIRED_NOT_FOUND' },
      { app: { exit: 1, code: 'INVALID_INPUT', at: { file: f('empty'), path: '(root)' }, message: 'it is empty' } },
    ),
  ];
}

function contractCases(): Generated[] {
  const c = (file: string, about: string, text: string | Uint8Array, expect: HostileCase['expect'], extra: Partial<Generated> = {}): Generated => ({
    file: `contract-${file}.json`,
    kind: 'contract',
    about,
    text,
    expect,
    ...extra,
  });
  const f = (name: string) => `contract-${name}.json`;
  const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const prettyLine = (text: string, needle: string) => text.split('\n').findIndex((row) => row.includes(needle)) + 1;
  const at = prettyLine;
  const { task: _task, ...noTask } = baseContract;
  const dupBudget = pretty(baseContract).replace('"tokenBudget": 1000', '"tokenBudget": 1000,\n  "tokenBudget": 99999999');
  const badKind = pretty(contractWith({ principals: [{ id: 'x', kind: 'robot', roles: ['agent'] }] }));
  const propositionDup = pretty(
    contractWith({
      requiredPropositions: [
        { id: 'p', acceptedClasses: ['a'] },
        { id: 'p', acceptedClasses: ['b'] },
      ],
    }),
  );
  const secondId = propositionDup.split('\n').findIndex((row, index) => index >= prettyLine(propositionDup, '"id": "p"') && row.includes('"id": "p"')) + 1;
  const typedOnly = pretty(contractWith({ typedEvidenceOnly: true }));
  const unknown = pretty(contractWith({ colour: 'red' }));
  return [
    c('missing-task', 'A contract without task (the app called it no kind of file)', pretty(noTask), refused(f('missing-task'), 1, 'task', 'required field missing')),
    c('dup-key-budget', 'tokenBudget given twice', dupBudget, refused(f('dup-key-budget'), prettyLine(dupBudget, '99999999'), 'tokenBudget', 'duplicate key "tokenBudget"')),
    c('bom', 'A byte order mark', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(pretty(baseContract))]), emitted),
    c('unknown-field', 'A field the format does not have, with its line', unknown, refused(f('unknown-field'), prettyLine(unknown, '"colour"'), '(root)', 'unknown field "colour"')),
    c('principals-empty', 'No principal', pretty(contractWith({ principals: [] })), refused(f('principals-empty'), 5, 'principals')),
    c('principal-kind', 'A principal of a kind that does not exist, with its line', badKind, refused(f('principal-kind'), prettyLine(badKind, '"robot"'), 'principals[0].kind', '(got "robot")')),
    c('as-of-invalid', 'An as-of that is not a date', pretty(contractWith({ asOf: 'yesterday' })), refused(f('as-of-invalid'), 4, 'asOf', '(got "yesterday")')),
    c('as-of-0099', 'An as-of in the year 99 is read as itself: every record is then from the future', pretty(contractWith({ asOf: '0099-12-31' })), { exit: 2, code: 'REQUIRED_ILLEGAL' }),
    c(
      'budget-negative',
      'A negative budget',
      pretty(contractWith({ tokenBudget: -1 })),
      refused(f('budget-negative'), at(pretty(contractWith({ tokenBudget: -1 })), '"tokenBudget"'), 'tokenBudget', '(got -1)'),
    ),
    c(
      'budget-float',
      'A fractional budget',
      pretty(contractWith({ tokenBudget: 10.5 })),
      refused(f('budget-float'), at(pretty(contractWith({ tokenBudget: 10.5 })), '"tokenBudget"'), 'tokenBudget', '(got 10.5)'),
    ),
    c(
      'budget-string',
      'A budget as a string',
      pretty(contractWith({ tokenBudget: '1000' })),
      refused(f('budget-string'), at(pretty(contractWith({ tokenBudget: '1000' })), '"tokenBudget"'), 'tokenBudget', '(got "1000")'),
    ),
    c('top-k-zero', 'naiveTopK of 0', pretty(contractWith({ naiveTopK: 0 })), refused(f('top-k-zero'), at(pretty(contractWith({ naiveTopK: 0 })), '"naiveTopK"'), 'naiveTopK', '(got 0)')),
    c(
      'ranking-unknown',
      'A ranking mode that does not exist',
      pretty(contractWith({ ranking: 'vibes' })),
      refused(f('ranking-unknown'), at(pretty(contractWith({ ranking: 'vibes' })), '"ranking"'), 'ranking', '(got "vibes")'),
    ),
    c(
      'scopes-100001',
      'A contract whose scopes list 100,001 names (lowering admission once overflowed the stack)',
      line(contractWith({ scopes: ['support', ...Array.from({ length: 100_000 }, (_, index) => `s${index}`)] })),
      emitted,
    ),
    c('required-missing', 'A required record that is not among the records', pretty(contractWith({ requiredRecords: ['R-1', 'NOPE'] })), { exit: 2, code: 'REQUIRED_NOT_FOUND' }),
    // Found by type-checking, after validation: the CLI knows the file and places them; the app's session does not yet.
    c('proposition-dup', 'Two required propositions with one id', propositionDup, refused(f('proposition-dup'), secondId, 'requiredPropositions[1].id', 'declared twice'), {
      app: { at: { file: 'contract', path: 'requiredPropositions[1].id' } },
    }),
    c(
      'typed-without-propositions',
      'typedEvidenceOnly with no proposition',
      typedOnly,
      refused(f('typed-without-propositions'), at(typedOnly, '"typedEvidenceOnly"'), 'typedEvidenceOnly', 'needs at least one entry in requiredPropositions'),
      { app: { at: { file: 'contract', path: 'typedEvidenceOnly' } } },
    ),
    c('array', 'A JSON array instead of an object', '[1, 2, 3]\n', refused(f('array'), 1, '(root)'), {
      app: { message: 'not a records JSONL file, contract, scenario or receipt', at: { file: f('array'), path: '(root)' } },
    }),
    c('truncated', 'A contract cut off', pretty(baseContract).slice(0, 200), refused(f('truncated'), pretty(baseContract).slice(0, 200).split('\n').length, '(root)', 'not valid JSON')),
    c('trailing-garbage', 'Text after the object', `${pretty(baseContract)}oops\n`, refused(f('trailing-garbage'), prettyLine(`${pretty(baseContract)}oops\n`, 'oops'), '(root)', 'not valid JSON')),
    c('comment', 'A JavaScript comment', pretty(baseContract).replace('{', '{\n  // the budget is generous'), refused(f('comment'), 2, '(root)', 'not valid JSON')),
    c(
      'deep-nesting',
      'A value nested 100,000 levels deep',
      line(baseContract).replace('"denyLabels":[]', `"denyLabels":${nested(100_000)}`),
      refused(f('deep-nesting'), 1, 'denyLabels[0][0][0][0][0][0][0]', 'nested deeper than the format allows'),
    ),
    c('proto-key', 'A __proto__ key', line(baseContract).replace('{', '{"__proto__":{"tokenBudget":0},'), refused(f('proto-key'), 1, '(root)', 'unknown field "__proto__"')),
    c('task-escapes', 'Terminal escapes in the task (valid; printed escaped)', pretty(contractWith({ task: `Summarise${ESC}` })), emitted),
    c(
      'ambiguous-subject',
      'A subject that names two identities',
      pretty(
        contractWith({
          subject: 'Jo',
          identities: [
            { id: 'a', aliases: ['Jo'] },
            { id: 'b', aliases: ['Jo'] },
          ],
        }),
      ),
      { exit: 1, code: 'AMBIGUOUS_SUBJECT' },
    ),
    c('empty', 'An empty file', '', refused(f('empty'), undefined, '(root)', 'not valid JSON: Unexpected end of JSON input'), { app: { message: 'it is empty' } }),
  ];
}

function scenarioCases(): Generated[] {
  // Each scenario has its own id: loading one with the base's id would replace the base in the app.
  const own = (file: string, text: string | Uint8Array) => (typeof text === 'string' ? text.replace(/"id": ?"hostile-base"/, `"id": "hostile-${file}"`) : text);
  const s = (file: string, about: string, text: string | Uint8Array, expect: HostileCase['expect'], extra: Partial<Generated> = {}): Generated => ({
    file: `scenario-${file}.json`,
    kind: 'scenario',
    about,
    text: own(file, text),
    expect,
    ...extra,
  });
  const f = (name: string) => `scenario-${name}.json`;
  const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const prettyLine = (text: string, needle: string, from = 0) => text.split('\n').findIndex((row, index) => index >= from && row.includes(needle)) + 1;
  const dupControls = pretty(scenarioWith({ controls: [change('c', [{ op: 'mergeContract', patch: { tokenBudget: 1 } }]), change('c', [{ op: 'mergeContract', patch: { tokenBudget: 2 } }])] }));
  const reserved = (key: string, where: 'top' | 'nested') =>
    where === 'top'
      ? pretty(scenarioWith({ controls: [change('c', [{ op: 'mergeContract', patch: { PLACE: { tokenBudget: 1 } } }])] })).replace('"PLACE"', `"${key}"`)
      : pretty(scenarioWith({ controls: [change('c', [{ op: 'mergeRecord', id: 'R-2', patch: { access: { PLACE: { roles: [] } } } }])] })).replace('"PLACE"', `"${key}"`);
  const protoTop = reserved('__proto__', 'top');
  const inlineDup = pretty(scenarioWith({ records: [...baseRecords, record('R-2')] }));
  return [
    s(
      'dup-control-ids',
      'Two controls with one id (switching it on applied both)',
      dupControls,
      refused(f('dup-control-ids'), prettyLine(dupControls, '"id": "c"', prettyLine(dupControls, '"id": "c"')), 'controls[1].id', 'duplicate id "c"', 'DUPLICATE_ID'),
    ),
    s(
      'dup-late-change-ids',
      'Two late changes with one id',
      pretty(scenarioWith({ lateChanges: [change('x', [{ op: 'removeRecord', id: 'R-2' }]), change('x', [{ op: 'removeRecord', id: 'R-3' }])] })),
      refused(f('dup-late-change-ids'), undefined, 'lateChanges[1].id', 'duplicate id "x"', 'DUPLICATE_ID'),
    ),
    s(
      'proto-top',
      '__proto__ at the top of a contract patch (was silently ignored)',
      protoTop,
      refused(f('proto-top'), prettyLine(protoTop, '"__proto__"'), 'controls[0].patches[0].patch', 'unknown field "__proto__"'),
    ),
    s(
      'constructor-top',
      'constructor at the top of a contract patch',
      reserved('constructor', 'top'),
      refused(f('constructor-top'), prettyLine(reserved('constructor', 'top'), '"constructor"'), 'controls[0].patches[0].patch', 'unknown field "constructor"'),
    ),
    s('prototype-top', 'prototype at the top of a contract patch', reserved('prototype', 'top'), refused(f('prototype-top'), undefined, 'controls[0].patches[0].patch', 'unknown field "prototype"')),
    s(
      'proto-nested',
      '__proto__ inside a record patch',
      reserved('__proto__', 'nested'),
      refused(f('proto-nested'), prettyLine(reserved('__proto__', 'nested'), '"__proto__"'), 'controls[0].patches[0].patch.access', 'unknown field "__proto__"'),
    ),
    s(
      'constructor-nested',
      'constructor inside a record patch',
      reserved('constructor', 'nested'),
      refused(f('constructor-nested'), undefined, 'controls[0].patches[0].patch.access', 'unknown field "constructor"'),
    ),
    s(
      'prototype-nested',
      'prototype inside a record patch',
      reserved('prototype', 'nested'),
      refused(f('prototype-nested'), undefined, 'controls[0].patches[0].patch.access', 'unknown field "prototype"'),
    ),
    s(
      'sibling-missing',
      'Names a records file that is not there',
      pretty(scenarioWith({ records: 'absent.jsonl' })),
      refused(f('sibling-missing'), prettyLine(pretty(scenarioWith({ records: 'absent.jsonl' })), '"records": "absent.jsonl"'), 'records', 'which was not supplied'),
    ),
    s('sibling-path', 'Names a records file outside its folder', pretty(scenarioWith({ records: '../etc/passwd.jsonl' })), refused(f('sibling-path'), undefined, 'records')),
    s(
      'sibling-bad',
      'Its records file has a bad line',
      pretty(scenarioWith({ records: 'scenario-sibling-bad.records.jsonl' })),
      unread('scenario-sibling-bad.records.jsonl', 2, 'tokens', '(got "many")'),
      { with: ['scenario-sibling-bad.records.jsonl'] },
    ),
    s('sibling-good', 'Its records file is fine', pretty(scenarioWith({ records: 'scenario-sibling-good.records.jsonl' })), emitted, { with: ['scenario-sibling-good.records.jsonl'] }),
    s(
      'inline-dup-id',
      'Two inline records with one id',
      inlineDup,
      refused(f('inline-dup-id'), prettyLine(inlineDup, '"id": "R-2"', prettyLine(inlineDup, '"id": "R-2"')), 'records[4].id', 'duplicate id "R-2"', 'DUPLICATE_ID'),
    ),
    s(
      'patch-absent-record',
      'A control patches a record that is not there',
      pretty(scenarioWith({ controls: [change('c', [{ op: 'mergeRecord', id: 'NOPE', patch: { tokens: 1 } }])] })),
      { exit: 1, code: 'DANGLING_REFERENCE' },
      { controls: ['c'] },
    ),
    s(
      'patch-adds-existing',
      'A control adds a record that exists',
      pretty(scenarioWith({ controls: [change('c', [{ op: 'addRecord', record: record('R-2') }])] })),
      { exit: 1, code: 'DUPLICATE_ID' },
      { controls: ['c'] },
    ),
    s(
      'patch-breaks-record',
      'A control makes a record invalid',
      pretty(scenarioWith({ controls: [change('c', [{ op: 'mergeRecord', id: 'R-2', patch: { tokens: -1 } }])] })),
      { exit: 1, code: 'INVALID_INPUT', message: 'tokens' },
      { controls: ['c'] },
    ),
    s(
      'patch-removes-required',
      'A control removes the required record: fail-closed',
      pretty(scenarioWith({ controls: [change('c', [{ op: 'removeRecord', id: 'R-1' }])] })),
      { exit: 2, code: 'REQUIRED_NOT_FOUND' },
      { controls: ['c'] },
    ),
    s('tight-budget', 'The base control: the required record cannot fit', pretty(baseScenario), { exit: 2, code: 'REQUIRED_OVER_BUDGET' }, { controls: ['tight'] }),
    s(
      'ten-thousand-controls',
      '10,000 controls (valid)',
      line(scenarioWith({ controls: Array.from({ length: 10_000 }, (_, index) => change(`c${index}`, [{ op: 'mergeContract', patch: { tokenBudget: index + 1 } }])) })),
      emitted,
    ),
    s('bom', 'A byte order mark', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(pretty(scenarioWith({ id: 'hostile-bom' })))]), emitted),
    s(
      'dup-key-contract',
      'A key given twice inside the contract',
      pretty(baseScenario).replace('"purpose": "support"', '"purpose": "support",\n    "purpose": "audit"'),
      refused(f('dup-key-contract'), prettyLine(pretty(baseScenario), '"purpose"') + 1, 'contract.purpose', 'duplicate key "purpose"'),
    ),
    s('truncated', 'A scenario cut off', pretty(baseScenario).slice(0, 500), refused(f('truncated'), pretty(baseScenario).slice(0, 500).split('\n').length, '(root)', 'not valid JSON')),
    s(
      'label-too-long',
      'A control label of 121 characters',
      pretty(scenarioWith({ controls: [change('c', [{ op: 'removeRecord', id: 'R-2' }], 'L'.repeat(121))] })),
      refused(f('label-too-long'), undefined, 'controls[0].label'),
    ),
    s(
      'unknown-op',
      'A patch operation that does not exist',
      pretty(scenarioWith({ controls: [change('c', [{ op: 'deleteEverything' }])] })),
      refused(f('unknown-op'), undefined, 'controls[0].patches[0].op', '(got "deleteEverything")'),
    ),
    s(
      'label-escapes',
      'Terminal escapes in a control label and the title (valid)',
      pretty(scenarioWith({ title: `Title${ESC}`, controls: [change('c', [{ op: 'removeRecord', id: 'R-2' }], `Label${ESC}`)] })),
      emitted,
    ),
    s(
      'deep-patch',
      'A patch nested 100,000 levels deep',
      line(scenarioWith({ controls: [change('c', [{ op: 'mergeContract', patch: { x: 'DEEP' } }])] })).replace('"DEEP"', nested(100_000)),
      refused(f('deep-patch'), 1, 'controls[0].patches[0].patch.x[0][0]', 'nested deeper than the format allows'),
    ),
    s('records-object', 'records is an object', pretty(scenarioWith({ records: { 'R-1': record('R-1') } })), refused(f('records-object'), undefined, 'records')),
    s('id-escapes', 'A scenario id with terminal escapes', pretty(scenarioWith({ id: `S${ESC}` })), emitted),
  ];
}

async function receiptCases(): Promise<Generated[]> {
  const compiler = createSqliteCompiler(await openInMemoryDatabase());
  const compiled = await compiler.compile({ contract: baseContract, recordSet: createRecordSet(baseRecords) });
  if (!compiled.ok) throw new Error(compiled.error.message);
  const receipt = compiled.value.receipt;
  const text = serialiseReceipt(receipt);
  const pretty = `${JSON.stringify(receipt, null, 2)}\n`;
  const prettyLine = (body: string, needle: string) => body.split('\n').findIndex((row) => row.includes(needle)) + 1;
  const rc = (file: string, about: string, body: string | Uint8Array, expect: HostileCase['expect'], extra: Partial<Generated> = {}): Generated => ({
    file: `receipt-${file}.json`,
    kind: 'receipt',
    about,
    text: body,
    expect,
    ...extra,
  });
  const f = (name: string) => `receipt-${name}.json`;
  const edited = (patch: Record<string, unknown>) => JSON.stringify({ ...receipt, ...patch });
  const badCode = pretty.replace(/"code": "[A-Z_]+"/, '"code": "MADE_UP"');
  return [
    rc('valid', 'The receipt of the base inputs', text, { exit: 0, code: 'RECEIPT_CURRENT' }),
    rc('bom', 'The same receipt with a byte order mark', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]), { exit: 0, code: 'RECEIPT_CURRENT' }),
    rc('pretty', 'The same receipt pretty-printed', pretty, { exit: 0, code: 'RECEIPT_CURRENT' }),
    rc('tampered', 'tokensUsed edited: the id no longer covers the body', edited({ tokensUsed: receipt.tokensUsed + 1 }), { exit: 2, code: 'RECEIPT_INVALID' }),
    rc(
      'dup-key-outcome',
      'outcome given twice',
      text.replace('"outcome":"packet"', '"outcome":"fail_closed","outcome":"packet"'),
      refused(f('dup-key-outcome'), 1, 'outcome', 'duplicate key "outcome"'),
    ),
    rc('id-not-hex', 'A receiptId that is not 64 hex digits', edited({ receiptId: 'zz' }), refused(f('id-not-hex'), 1, 'receiptId', '(got "zz")')),
    rc('unknown-field', 'A field the format does not have', edited({ signature: 'x' }), refused(f('unknown-field'), 1, '(root)', 'unknown field "signature"')),
    rc('bad-code', 'A trace row with a code that is not in the catalogue, with its line', badCode, refused(f('bad-code'), prettyLine(badCode, 'MADE_UP'), 'trace[0].code', '(got "MADE_UP")')),
    rc('truncated', 'A receipt cut off', text.slice(0, 300), refused(f('truncated'), 1, '(root)', 'not valid JSON')),
    rc('missing-trace', 'A receipt without its trace', JSON.stringify((({ trace: _trace, ...rest }) => rest)(receipt)), refused(f('missing-trace'), 1, 'trace', 'required field missing')),
    rc('old-engine', 'A receipt from another engine version', edited({ engineVersion: '0.0.1' }), { exit: 2, code: 'RECEIPT_INVALID' }),
    rc('array', 'A JSON array', `[${text}]`, refused(f('array'), 1, '(root)'), {
      app: { at: { file: f('array'), path: '(root)' }, message: 'not a records JSONL file, contract, scenario or receipt' },
    }),
    rc('proto-key', 'A __proto__ key', text.replace('{', '{"__proto__":{"outcome":"packet"},'), refused(f('proto-key'), 1, '(root)', 'unknown field "__proto__"')),
    rc('task-escapes', "Terminal escapes in the contract's task: printed escaped, and the id no longer matches", edited({ contract: { ...receipt.contract, task: `x${ESC}` } }), {
      exit: 2,
      code: 'RECEIPT_INVALID',
    }),
  ];
}

async function writeCorpus(): Promise<void> {
  const generated = [...recordCases(), ...contractCases(), ...scenarioCases(), ...(await receiptCases())];
  const siblings: Record<string, string> = {
    'scenario-sibling-bad.records.jsonl': lines(...valid('R-1'), withField('R-2', 'tokens', 'many')),
    'scenario-sibling-good.records.jsonl': lines(...valid('R-1', 'R-2', 'R-3')),
  };
  const previous = existsSync(MANIFEST_FILE) ? readManifest() : null;
  const ours = new Set(generated.map((entry) => entry.file));
  const kept = previous?.cases.filter((entry) => !ours.has(entry.file)) ?? [];
  for (const entry of previous?.cases ?? []) if (ours.has(entry.file)) rmSync(`${HOSTILE_DIR}${entry.file}`, { force: true });
  mkdirSync(HOSTILE_DIR, { recursive: true });
  writeFileSync(`${HOSTILE_DIR}${BASE.records}`, lines(...baseRecords.map(line)));
  writeFileSync(`${HOSTILE_DIR}${BASE.contract}`, `${JSON.stringify(baseContract, null, 2)}\n`);
  writeFileSync(`${HOSTILE_DIR}${BASE.scenario}`, `${JSON.stringify(baseScenario, null, 2)}\n`);
  for (const [name, text] of Object.entries(siblings)) writeFileSync(`${HOSTILE_DIR}${name}`, text);
  for (const entry of generated) writeFileSync(`${HOSTILE_DIR}${entry.file}`, entry.text);
  const cases: HostileCase[] = [...generated.map(({ text: _text, ...entry }) => caseSchema.parse(entry)), ...kept];
  const manifest: HostileManifest = { base: BASE, cases };
  writeFileSync(MANIFEST_FILE, `${JSON.stringify(manifestSchema.parse(manifest), null, 2)}\n`);
  console.log(`wrote ${generated.length} generated cases (${kept.length} kept by hand) to fixtures/hostile/`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await writeCorpus();
