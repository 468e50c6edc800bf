import {
  baseRecords,
  baseScenario,
  change,
  emitted,
  ESC,
  type Generated,
  line,
  nested,
  record,
  refused,
  scenarioWith,
  unread,
} from './build';
import type { HostileCase } from './manifest';

export function scenarioCases(): Generated[] {
  // Each scenario has its own id: loading one with the base's id would replace the base in the app.
  const own = (file: string, text: string | Uint8Array) =>
    typeof text === 'string' ? text.replace(/"id": ?"hostile-base"/, `"id": "hostile-${file}"`) : text;
  const s = (
    file: string,
    about: string,
    text: string | Uint8Array,
    expect: HostileCase['expect'],
    extra: Partial<Generated> = {},
  ): Generated => ({
    file: `scenario-${file}.json`,
    kind: 'scenario',
    about,
    text: own(file, text),
    expect,
    ...extra,
  });
  const f = (name: string) => `scenario-${name}.json`;
  const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const prettyLine = (text: string, needle: string, from = 0) =>
    text.split('\n').findIndex((row, index) => index >= from && row.includes(needle)) + 1;
  const dupControls = pretty(
    scenarioWith({
      controls: [
        change('c', [{ op: 'mergeContract', patch: { tokenBudget: 1 } }]),
        change('c', [{ op: 'mergeContract', patch: { tokenBudget: 2 } }]),
      ],
    }),
  );
  const reserved = (key: string, where: 'top' | 'nested') =>
    where === 'top'
      ? pretty(
          scenarioWith({ controls: [change('c', [{ op: 'mergeContract', patch: { PLACE: { tokenBudget: 1 } } }])] }),
        ).replace('"PLACE"', `"${key}"`)
      : pretty(
          scenarioWith({
            controls: [change('c', [{ op: 'mergeRecord', id: 'R-2', patch: { access: { PLACE: { roles: [] } } } }])],
          }),
        ).replace('"PLACE"', `"${key}"`);
  const protoTop = reserved('__proto__', 'top');
  const inlineDup = pretty(scenarioWith({ records: [...baseRecords, record('R-2')] }));
  return [
    s(
      'dup-control-ids',
      'Two controls with one id (switching it on applied both)',
      dupControls,
      refused(
        f('dup-control-ids'),
        prettyLine(dupControls, '"id": "c"', prettyLine(dupControls, '"id": "c"')),
        'controls[1].id',
        'duplicate id "c"',
        'DUPLICATE_ID',
      ),
    ),
    s(
      'dup-late-change-ids',
      'Two late changes with one id',
      pretty(
        scenarioWith({
          lateChanges: [
            change('x', [{ op: 'removeRecord', id: 'R-2' }]),
            change('x', [{ op: 'removeRecord', id: 'R-3' }]),
          ],
        }),
      ),
      refused(f('dup-late-change-ids'), undefined, 'lateChanges[1].id', 'duplicate id "x"', 'DUPLICATE_ID'),
    ),
    s(
      'proto-top',
      '__proto__ at the top of a contract patch (was silently ignored)',
      protoTop,
      refused(
        f('proto-top'),
        prettyLine(protoTop, '"__proto__"'),
        'controls[0].patches[0].patch',
        'unknown field "__proto__"',
      ),
    ),
    s(
      'constructor-top',
      'constructor at the top of a contract patch',
      reserved('constructor', 'top'),
      refused(
        f('constructor-top'),
        prettyLine(reserved('constructor', 'top'), '"constructor"'),
        'controls[0].patches[0].patch',
        'unknown field "constructor"',
      ),
    ),
    s(
      'prototype-top',
      'prototype at the top of a contract patch',
      reserved('prototype', 'top'),
      refused(f('prototype-top'), undefined, 'controls[0].patches[0].patch', 'unknown field "prototype"'),
    ),
    s(
      'proto-nested',
      '__proto__ inside a record patch',
      reserved('__proto__', 'nested'),
      refused(
        f('proto-nested'),
        prettyLine(reserved('__proto__', 'nested'), '"__proto__"'),
        'controls[0].patches[0].patch.access',
        'unknown field "__proto__"',
      ),
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
      refused(
        f('sibling-missing'),
        prettyLine(pretty(scenarioWith({ records: 'absent.jsonl' })), '"records": "absent.jsonl"'),
        'records',
        'which was not supplied',
      ),
    ),
    s(
      'sibling-path',
      'Names a records file outside its folder',
      pretty(scenarioWith({ records: '../etc/passwd.jsonl' })),
      refused(f('sibling-path'), undefined, 'records'),
    ),
    s(
      'sibling-bad',
      'Its records file has a bad line',
      pretty(scenarioWith({ records: 'scenario-sibling-bad.records.jsonl' })),
      unread('scenario-sibling-bad.records.jsonl', 2, 'tokens', '(got "many")'),
      { with: ['scenario-sibling-bad.records.jsonl'] },
    ),
    s(
      'sibling-good',
      'Its records file is fine',
      pretty(scenarioWith({ records: 'scenario-sibling-good.records.jsonl' })),
      emitted,
      { with: ['scenario-sibling-good.records.jsonl'] },
    ),
    s(
      'inline-dup-id',
      'Two inline records with one id',
      inlineDup,
      refused(
        f('inline-dup-id'),
        prettyLine(inlineDup, '"id": "R-2"', prettyLine(inlineDup, '"id": "R-2"')),
        'records[4].id',
        'duplicate id "R-2"',
        'DUPLICATE_ID',
      ),
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
    s(
      'tight-budget',
      'The base control: the required record cannot fit',
      pretty(baseScenario),
      { exit: 2, code: 'REQUIRED_OVER_BUDGET' },
      { controls: ['tight'] },
    ),
    s(
      'ten-thousand-controls',
      '10,000 controls (valid)',
      line(
        scenarioWith({
          controls: Array.from({ length: 10_000 }, (_, index) =>
            change(`c${index}`, [{ op: 'mergeContract', patch: { tokenBudget: index + 1 } }]),
          ),
        }),
      ),
      emitted,
    ),
    s(
      'bom',
      'A byte order mark',
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(pretty(scenarioWith({ id: 'hostile-bom' })))]),
      emitted,
    ),
    s(
      'dup-key-contract',
      'A key given twice inside the contract',
      pretty(baseScenario).replace('"purpose": "support"', '"purpose": "support",\n    "purpose": "audit"'),
      refused(
        f('dup-key-contract'),
        prettyLine(pretty(baseScenario), '"purpose"') + 1,
        'contract.purpose',
        'duplicate key "purpose"',
      ),
    ),
    s(
      'truncated',
      'A scenario cut off',
      pretty(baseScenario).slice(0, 500),
      refused(f('truncated'), pretty(baseScenario).slice(0, 500).split('\n').length, '(root)', 'not valid JSON'),
    ),
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
      pretty(
        scenarioWith({
          title: `Title${ESC}`,
          controls: [change('c', [{ op: 'removeRecord', id: 'R-2' }], `Label${ESC}`)],
        }),
      ),
      emitted,
    ),
    s(
      'deep-patch',
      'A patch nested 100,000 levels deep',
      line(scenarioWith({ controls: [change('c', [{ op: 'mergeContract', patch: { x: 'DEEP' } }])] })).replace(
        '"DEEP"',
        nested(100_000),
      ),
      refused(f('deep-patch'), 1, 'controls[0].patches[0].patch.x[0][0]', 'nested deeper than the format allows'),
    ),
    s(
      'records-object',
      'records is an object',
      pretty(scenarioWith({ records: { 'R-1': record('R-1') } })),
      refused(f('records-object'), undefined, 'records'),
    ),
    s('id-escapes', 'A scenario id with terminal escapes', pretty(scenarioWith({ id: `S${ESC}` })), emitted),
  ];
}
