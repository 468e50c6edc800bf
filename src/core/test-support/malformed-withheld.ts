import fc from 'fast-check';
import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { withheldByContract } from '../phases/4-admit/admit';
import { caseArbitrary } from './arbitraries';
import { WITHHELD_PURPOSE, withoutCrossingLinks } from './withheld-mutations';

/**
 * Records the caller may not see that cannot be read or judged: every defect a records line can have (not
 * JSON, an over-long or look-alike id, a value of the wrong type, a missing or unknown field, a lone
 * surrogate, an impossible date, a negative token count) and every duplicate id (of a withheld or of a
 * visible record), each on a record withheld by a denied label, a missing role or a missing purpose. The
 * noninterference properties add such lines to a records file and compare every user-view output.
 */

export const DEFECTS = [
  'invalid-json',
  'id-too-long',
  'invisible-id',
  'nfd-id',
  'tokens-as-string',
  'title-as-number',
  'missing-field',
  'unknown-field',
  'lone-surrogate',
  'impossible-date',
  'negative-tokens',
  'duplicate-of-withheld',
  'duplicate-of-visible',
] as const;

export type Defect = (typeof DEFECTS)[number];
export type WithheldBy = 'deny-label' | 'missing-role' | 'missing-purpose';

export interface MalformedLine {
  readonly defect: Defect;
  readonly withheldBy: WithheldBy;
  /** Which record of the case lends its body (and, for a duplicate, its id). */
  readonly pick: number;
  /** Where among the case's lines it goes. */
  readonly position: number;
  /** Words only this line holds: none of them may reach the user view. */
  readonly secret: string;
}

export interface MalformedCase {
  readonly contract: Contract;
  readonly records: readonly SourceRecord[];
  readonly lines: readonly MalformedLine[];
}

const secretArbitrary = fc
  .constantFrom('merger', 'layoff', 'acquisition', 'indictment')
  .chain((word) => fc.nat({ max: 9999 }).map((n) => `${word}${n}secret`));

export const malformedLineArbitrary: fc.Arbitrary<MalformedLine> = fc.record({
  defect: fc.constantFrom(...DEFECTS),
  withheldBy: fc.constantFrom<WithheldBy>('deny-label', 'missing-role', 'missing-purpose'),
  pick: fc.nat(),
  position: fc.nat(),
  secret: secretArbitrary,
});

export const malformedCaseArbitrary: fc.Arbitrary<MalformedCase> = fc
  .tuple(caseArbitrary, fc.array(malformedLineArbitrary, { minLength: 1, maxLength: 3 }))
  .map(([base, lines]) => ({ contract: base.contract, records: base.records, lines }));

/** A role no principal of any generated contract holds. */
const NOBODY_S_ROLE = 'nobody-holds-this-role';

/**
 * The record withheld the way asked; a denied label needs a contract that denies one, else its purpose is taken away.
 */
function withheldAs(
  record: SourceRecord,
  contract: Contract,
  by: WithheldBy,
): { readonly record: SourceRecord; readonly by: WithheldBy } {
  const denied = contract.denyLabels[0];
  if (by === 'deny-label' && denied !== undefined)
    return { record: { ...record, access: { ...record.access, labels: [denied] } }, by };
  if (by === 'missing-role') return { record: { ...record, access: { ...record.access, roles: [NOBODY_S_ROLE] } }, by };
  return { record: { ...record, access: { ...record.access, purposes: [WITHHELD_PURPOSE] } }, by: 'missing-purpose' };
}

/**
 * The JSONL line for one malformed withheld record, and how it ended up withheld; null when the case has no record to
 * duplicate.
 */
export function malformedText(
  input: MalformedCase,
  line: MalformedLine,
  index: number,
): { readonly text: string; readonly by: WithheldBy } | null {
  const { contract, records } = input;
  const visible = records.filter((record) => !withheldByContract(contract, record));
  const hidden = records.filter((record) => withheldByContract(contract, record));
  const lender = records[line.pick % records.length];
  if (lender === undefined) return null;
  const body = {
    ...lender,
    id: `bad-${index}-${line.secret}`,
    title: `Title about the ${line.secret}`,
    text: `Text of the ${line.secret}`,
    supersedes: [],
  };
  const { record, by } = withheldAs(body, contract, line.withheldBy);
  const json = (value: unknown) => JSON.stringify(value);
  switch (line.defect) {
    case 'invalid-json':
      return { text: json(record).replace('"text":', ' oops, "text":'), by };
    case 'id-too-long':
      return { text: json({ ...record, id: record.id.padEnd(201, line.secret) }), by };
    case 'invisible-id':
      return {
        text: json({ ...record, id: `${(visible[line.pick % Math.max(1, visible.length)] ?? record).id}\u200b` }),
        by,
      };
    case 'nfd-id':
      return { text: json({ ...record, id: `CAFE\u0301-${line.secret}` }), by };
    case 'tokens-as-string':
      return { text: json({ ...record, tokens: String(record.tokens) }), by };
    case 'title-as-number':
      return { text: json({ ...record, title: 12345 }), by };
    case 'missing-field': {
      const { text: _text, ...rest } = record;
      return { text: json(rest), by };
    }
    case 'unknown-field':
      return { text: json({ ...record, denyLabel: [line.secret] }), by };
    case 'lone-surrogate':
      return { text: json({ ...record, title: `${record.title} \ud800` }), by };
    case 'impossible-date':
      return { text: json({ ...record, knownAt: '2026-02-30' }), by };
    case 'negative-tokens':
      return { text: json({ ...record, tokens: -1 }), by };
    case 'duplicate-of-withheld': {
      const original = hidden[line.pick % Math.max(1, hidden.length)];
      return original === undefined ? null : { text: json({ ...record, id: original.id }), by };
    }
    case 'duplicate-of-visible': {
      const original = visible[line.pick % Math.max(1, visible.length)];
      return original === undefined ? null : { text: json({ ...record, id: original.id }), by };
    }
  }
}

/** The case's records as a JSONL file, with its malformed lines in their places (or without them). */
export function recordsFileOf(
  input: MalformedCase,
  withMalformed: boolean,
): { readonly text: string; readonly added: readonly { readonly defect: Defect; readonly by: WithheldBy }[] } {
  const lines = input.records.map((record) => JSON.stringify(record));
  const added: { defect: Defect; by: WithheldBy }[] = [];
  if (withMalformed) {
    input.lines.forEach((line, index) => {
      const made = malformedText(input, line, index);
      if (made === null) return;
      lines.splice(line.position % (lines.length + 1), 0, made.text);
      added.push({ defect: line.defect, by: made.by });
    });
  }
  return { text: `${lines.join('\n')}\n`, added };
}

/** The same case with other secrets: what the malformed lines hold changes, nothing else. */
export function withOtherSecrets(input: MalformedCase): MalformedCase {
  return { ...input, lines: input.lines.map((line) => ({ ...line, secret: `other${line.secret}` })) };
}

/**
 * A generated case as every property judges it: the records that link across the withheld boundary left out
 * (so removing a withheld record breaks no visible one's link), and its records file with the malformed withheld
 * lines added. Null when no line could be added or the clean inputs do not compile (`compiles` says which).
 */
export async function malformedWithheldFile(
  raw: MalformedCase,
  compiles: (input: MalformedCase) => Promise<boolean>,
): Promise<{ readonly input: MalformedCase; readonly file: ReturnType<typeof recordsFileOf> } | null> {
  const withheld = new Set(
    raw.records.filter((record) => withheldByContract(raw.contract, record)).map((record) => record.id),
  );
  const input = { ...raw, records: withoutCrossingLinks(raw.records, withheld) };
  const file = recordsFileOf(input, true);
  return file.added.length > 0 && (await compiles(input)) ? { input, file } : null;
}
