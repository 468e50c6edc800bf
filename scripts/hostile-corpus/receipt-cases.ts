import { sha256InNode } from '../../src/lib/node-sha256';
import { createSqliteCompiler } from '../../src/adapters/sqlite/compiler';
import { serialiseReceipt } from '../../src/core/phases/7-attest/attest';
import { createRecordSet } from '../../src/core/phases/1-validate/validate';
import { openInMemoryDatabase } from '../../src/sqlite/load-sqlite';
import { baseContract, baseRecords, ESC, type Generated, refused } from './build';
import type { HostileCase } from './manifest';

export async function receiptCases(): Promise<Generated[]> {
  const compiler = createSqliteCompiler(sha256InNode, await openInMemoryDatabase());
  const compiled = await compiler.compile({
    contract: baseContract,
    recordSet: createRecordSet(sha256InNode, baseRecords),
  });
  if (!compiled.ok) throw new Error(compiled.error.message);
  const receipt = compiled.value.receipt;
  const text = serialiseReceipt(receipt);
  const pretty = `${JSON.stringify(receipt, null, 2)}\n`;
  const prettyLine = (body: string, needle: string) => body.split('\n').findIndex((row) => row.includes(needle)) + 1;
  const rc = (
    file: string,
    about: string,
    body: string | Uint8Array,
    expect: HostileCase['expect'],
    extra: Partial<Generated> = {},
  ): Generated => ({
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
    rc(
      'bom',
      'The same receipt with a byte order mark',
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]),
      { exit: 0, code: 'RECEIPT_CURRENT' },
    ),
    rc('pretty', 'The same receipt pretty-printed', pretty, { exit: 0, code: 'RECEIPT_CURRENT' }),
    rc(
      'tampered',
      'tokensUsed edited: the id no longer covers the body',
      edited({ tokensUsed: receipt.tokensUsed + 1 }),
      { exit: 2, code: 'RECEIPT_INVALID' },
    ),
    rc(
      'dup-key-outcome',
      'outcome given twice',
      text.replace('"outcome":"packet"', '"outcome":"fail_closed","outcome":"packet"'),
      refused(f('dup-key-outcome'), 1, 'outcome', 'duplicate key "outcome"'),
    ),
    rc(
      'id-not-hex',
      'A receiptId that is not 64 hex digits',
      edited({ receiptId: 'zz' }),
      refused(f('id-not-hex'), 1, 'receiptId', '(got "zz")'),
    ),
    rc(
      'unknown-field',
      'A field the format does not have',
      edited({ signature: 'x' }),
      refused(f('unknown-field'), 1, '(root)', 'unknown field "signature"'),
    ),
    rc(
      'bad-code',
      'A trace row with a code that is not in the catalogue, with its line',
      badCode,
      refused(f('bad-code'), prettyLine(badCode, 'MADE_UP'), 'trace[0].code', '(got "MADE_UP")'),
    ),
    rc('truncated', 'A receipt cut off', text.slice(0, 300), refused(f('truncated'), 1, '(root)', 'not valid JSON')),
    rc(
      'missing-trace',
      'A receipt without its trace',
      JSON.stringify((({ trace: _trace, ...rest }) => rest)(receipt)),
      refused(f('missing-trace'), 1, 'trace', 'required field missing'),
    ),
    rc('old-engine', 'A receipt from another engine version', edited({ engineVersion: '0.0.1' }), {
      exit: 2,
      code: 'RECEIPT_INVALID',
    }),
    rc('array', 'A JSON array', `[${text}]`, refused(f('array'), 1, '(root)'), {
      app: {
        at: { file: f('array'), path: '(root)' },
        message: 'not a records JSONL file, contract, scenario or receipt',
      },
    }),
    rc(
      'proto-key',
      'A __proto__ key',
      text.replace('{', '{"__proto__":{"outcome":"packet"},'),
      refused(f('proto-key'), 1, '(root)', 'unknown field "__proto__"'),
    ),
    rc(
      'task-escapes',
      "Terminal escapes in the contract's task: printed escaped, and the id no longer matches",
      edited({ contract: { ...receipt.contract, task: `x${ESC}` } }),
      {
        exit: 2,
        code: 'RECEIPT_INVALID',
      },
    ),
  ];
}
