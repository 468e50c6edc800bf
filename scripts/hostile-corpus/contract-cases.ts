import { baseContract, contractWith, emitted, ESC, type Generated, line, nested, refused } from './build';
import type { HostileCase } from './manifest';

export function contractCases(): Generated[] {
  const c = (
    file: string,
    about: string,
    text: string | Uint8Array,
    expect: HostileCase['expect'],
    extra: Partial<Generated> = {},
  ): Generated => ({
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
  const dupBudget = pretty(baseContract).replace(
    '"tokenBudget": 1000',
    '"tokenBudget": 1000,\n  "tokenBudget": 99999999',
  );
  const badKind = pretty(contractWith({ principals: [{ id: 'x', kind: 'robot', roles: ['agent'] }] }));
  const propositionDup = pretty(
    contractWith({
      requiredPropositions: [
        { id: 'p', acceptedClasses: ['a'] },
        { id: 'p', acceptedClasses: ['b'] },
      ],
    }),
  );
  const secondId =
    propositionDup
      .split('\n')
      .findIndex((row, index) => index >= prettyLine(propositionDup, '"id": "p"') && row.includes('"id": "p"')) + 1;
  const typedOnly = pretty(contractWith({ typedEvidenceOnly: true }));
  const unknown = pretty(contractWith({ colour: 'red' }));
  return [
    c(
      'missing-task',
      'A contract without task (the app called it no kind of file)',
      pretty(noTask),
      refused(f('missing-task'), 1, 'task', 'required field missing'),
    ),
    c(
      'dup-key-budget',
      'tokenBudget given twice',
      dupBudget,
      refused(f('dup-key-budget'), prettyLine(dupBudget, '99999999'), 'tokenBudget', 'duplicate key "tokenBudget"'),
    ),
    c(
      'bom',
      'A byte order mark',
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(pretty(baseContract))]),
      emitted,
    ),
    c(
      'unknown-field',
      'A field the format does not have, with its line',
      unknown,
      refused(f('unknown-field'), prettyLine(unknown, '"colour"'), '(root)', 'unknown field "colour"'),
    ),
    c(
      'principals-empty',
      'No principal',
      pretty(contractWith({ principals: [] })),
      refused(f('principals-empty'), 5, 'principals'),
    ),
    c(
      'principal-kind',
      'A principal of a kind that does not exist, with its line',
      badKind,
      refused(f('principal-kind'), prettyLine(badKind, '"robot"'), 'principals[0].kind', '(got "robot")'),
    ),
    c(
      'as-of-invalid',
      'An as-of that is not a date',
      pretty(contractWith({ asOf: 'yesterday' })),
      refused(f('as-of-invalid'), 4, 'asOf', '(got "yesterday")'),
    ),
    c(
      'as-of-0099',
      'An as-of in the year 99 is read as itself: every record is then from the future',
      pretty(contractWith({ asOf: '0099-12-31' })),
      { exit: 2, code: 'REQUIRED_ILLEGAL' },
    ),
    c(
      'budget-negative',
      'A negative budget',
      pretty(contractWith({ tokenBudget: -1 })),
      refused(
        f('budget-negative'),
        at(pretty(contractWith({ tokenBudget: -1 })), '"tokenBudget"'),
        'tokenBudget',
        '(got -1)',
      ),
    ),
    c(
      'budget-float',
      'A fractional budget',
      pretty(contractWith({ tokenBudget: 10.5 })),
      refused(
        f('budget-float'),
        at(pretty(contractWith({ tokenBudget: 10.5 })), '"tokenBudget"'),
        'tokenBudget',
        '(got 10.5)',
      ),
    ),
    c(
      'budget-string',
      'A budget as a string',
      pretty(contractWith({ tokenBudget: '1000' })),
      refused(
        f('budget-string'),
        at(pretty(contractWith({ tokenBudget: '1000' })), '"tokenBudget"'),
        'tokenBudget',
        '(got "1000")',
      ),
    ),
    c(
      'top-k-zero',
      'naiveTopK of 0',
      pretty(contractWith({ naiveTopK: 0 })),
      refused(f('top-k-zero'), at(pretty(contractWith({ naiveTopK: 0 })), '"naiveTopK"'), 'naiveTopK', '(got 0)'),
    ),
    c(
      'ranking-unknown',
      'A ranking mode that does not exist',
      pretty(contractWith({ ranking: 'vibes' })),
      refused(
        f('ranking-unknown'),
        at(pretty(contractWith({ ranking: 'vibes' })), '"ranking"'),
        'ranking',
        '(got "vibes")',
      ),
    ),
    c(
      'scopes-100001',
      'A contract whose scopes list 100,001 names (lowering admission once overflowed the stack)',
      line(contractWith({ scopes: ['support', ...Array.from({ length: 100_000 }, (_, index) => `s${index}`)] })),
      emitted,
    ),
    c(
      'required-missing',
      'A required record that is not among the records',
      pretty(contractWith({ requiredRecords: ['R-1', 'NOPE'] })),
      { exit: 2, code: 'REQUIRED_NOT_FOUND' },
    ),
    // Found by type-checking, after validation: the CLI knows the file and places them; the app's session does not yet.
    c(
      'proposition-dup',
      'Two required propositions with one id',
      propositionDup,
      refused(f('proposition-dup'), secondId, 'requiredPropositions[1].id', 'declared twice'),
      {
        app: { at: { file: 'contract', path: 'requiredPropositions[1].id' } },
      },
    ),
    c(
      'typed-without-propositions',
      'typedEvidenceOnly with no proposition',
      typedOnly,
      refused(
        f('typed-without-propositions'),
        at(typedOnly, '"typedEvidenceOnly"'),
        'typedEvidenceOnly',
        'needs at least one entry in requiredPropositions',
      ),
      { app: { at: { file: 'contract', path: 'typedEvidenceOnly' } } },
    ),
    c('array', 'A JSON array instead of an object', '[1, 2, 3]\n', refused(f('array'), 1, '(root)'), {
      app: {
        message: 'not a records JSONL file, contract, scenario or receipt',
        at: { file: f('array'), path: '(root)' },
      },
    }),
    c(
      'truncated',
      'A contract cut off',
      pretty(baseContract).slice(0, 200),
      refused(f('truncated'), pretty(baseContract).slice(0, 200).split('\n').length, '(root)', 'not valid JSON'),
    ),
    c(
      'trailing-garbage',
      'Text after the object',
      `${pretty(baseContract)}oops\n`,
      refused(f('trailing-garbage'), prettyLine(`${pretty(baseContract)}oops\n`, 'oops'), '(root)', 'not valid JSON'),
    ),
    c(
      'comment',
      'A JavaScript comment',
      pretty(baseContract).replace('{', '{\n  // the budget is generous'),
      refused(f('comment'), 2, '(root)', 'not valid JSON'),
    ),
    c(
      'deep-nesting',
      'A value nested 100,000 levels deep',
      line(baseContract).replace('"denyLabels":[]', `"denyLabels":${nested(100_000)}`),
      refused(f('deep-nesting'), 1, 'denyLabels[0][0][0][0][0][0][0]', 'nested deeper than the format allows'),
    ),
    c(
      'proto-key',
      'A __proto__ key',
      line(baseContract).replace('{', '{"__proto__":{"tokenBudget":0},'),
      refused(f('proto-key'), 1, '(root)', 'unknown field "__proto__"'),
    ),
    c(
      'task-escapes',
      'Terminal escapes in the task (valid; printed escaped)',
      pretty(contractWith({ task: `Summarise${ESC}` })),
      emitted,
    ),
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
    c(
      'empty',
      'An empty file',
      '',
      refused(f('empty'), undefined, '(root)', 'not valid JSON: Unexpected end of JSON input'),
      { app: { message: 'it is empty' } },
    ),
  ];
}
