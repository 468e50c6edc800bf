import fc from 'fast-check';
import type { Compiler } from '../compile';
import { isWithheldFromUser } from '../disclosure';
import type { Contract } from '../format/contract';
import { recordSchema, type SourceRecord } from '../format/record';
import { createRecordSet } from '../phases/1-validate/validate';
import type { CompileOutcome } from '../result';
import { caseArbitrary } from './arbitraries';

/**
 * Changes to records the user view withholds (excluded for authorisation or a deny label), for the
 * noninterference property over every output of the user view: the CLI's and the worker's. Any field of
 * such a record may change (the id aside: that is a removal and an addition), records may be added
 * (withheld by a purpose the contract never has) or removed, and their supersession links broken (a
 * dangling target, a record superseding itself, two superseding each other): a broken link makes only
 * its records inadmissible, and these are withheld already. What it leaves alone, because the caller
 * does see it: a record the contract names (required), and links to or from a visible record, whose
 * one declared exception (a withheld successor still excludes what it supersedes) is not this property's.
 */

/** Every field of a record but its id and its supersession links. */
const EDITABLE_FIELDS = [
  'title',
  'text',
  'tokens',
  'project',
  'scope',
  'subject',
  'knownAt',
  'validFrom',
  'validTo',
  'lifecycle',
  'sourceClass',
  'authorityClass',
  'reviewState',
  'provenance',
  'sensitivity',
  'access',
  'evidence',
  'relevance',
] as const satisfies readonly (keyof SourceRecord)[];

export type WithheldChange =
  /** Copy these fields from a donor record (another generated case's) into a withheld record. */
  | {
      readonly kind: 'edit';
      readonly pick: number;
      readonly donor: number;
      readonly fields: readonly (typeof EDITABLE_FIELDS)[number][];
    }
  | { readonly kind: 'add'; readonly donor: number }
  | { readonly kind: 'remove'; readonly pick: number }
  /** Point a withheld record's supersession at an id no record has. */
  | { readonly kind: 'dangle'; readonly pick: number }
  /** Two withheld records supersede each other (one record: itself). */
  | { readonly kind: 'cycle'; readonly pick: number; readonly other: number };

export interface WithheldCase {
  readonly contract: Contract;
  readonly records: readonly SourceRecord[];
  readonly donors: readonly SourceRecord[];
  readonly changes: readonly WithheldChange[];
}

export const withheldChangeArbitrary: fc.Arbitrary<WithheldChange> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      pick: fc.nat(),
      donor: fc.nat(),
      fields: fc.subarray([...EDITABLE_FIELDS], { minLength: 1 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('add' as const), donor: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dangle' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cycle' as const), pick: fc.nat(), other: fc.nat() }) },
);

export const withheldCaseArbitrary: fc.Arbitrary<WithheldCase> = fc
  .tuple(caseArbitrary, caseArbitrary, fc.array(withheldChangeArbitrary, { minLength: 1, maxLength: 4 }))
  .map(([base, donor, changes]) => ({
    contract: base.contract,
    records: base.records,
    donors: donor.records,
    changes,
  }));

/** Ids of the records `outcome`'s user view withholds. */
export function withheldIds(outcome: CompileOutcome): Set<string> {
  return new Set(outcome.trace.filter(isWithheldFromUser).map((row) => row.id));
}

/** A purpose no generated contract has: a record that requires it fails authorisation whatever else it carries. */
const NO_ONES_PURPOSE = 'no-ones-purpose';

/**
 * The records after the case's changes, and the ids it touched; null when it has nothing to change. Only
 * records `before` withholds are changed, and only those the contract does not name and that supersede
 * nothing and are superseded by none. Whether an edited record is still withheld afterwards (an edit may
 * lift its deny label) is for the caller to check against the compilation of the result.
 */
export function applyWithheldChanges(
  input: WithheldCase,
  before: CompileOutcome,
): { records: SourceRecord[]; touched: Set<string> } | null {
  const withheld = withheldIds(before);
  const required = new Set(input.contract.requiredRecords);
  const linked = new Set(
    input.records.flatMap((record) => (record.supersedes.length > 0 ? [record.id, ...record.supersedes] : [])),
  );
  const candidates = input.records.filter(
    (record) => withheld.has(record.id) && !required.has(record.id) && !linked.has(record.id),
  );
  const byId = new Map(input.records.map((record) => [record.id, record]));
  const touched = new Set<string>();
  let added = 0;
  for (const change of input.changes) {
    const donor =
      input.donors[
        (change.kind === 'add' || change.kind === 'edit' ? change.donor : 0) % Math.max(input.donors.length, 1)
      ];
    if (change.kind === 'add') {
      if (donor === undefined) continue;
      const id = `w-${added++}`;
      byId.set(
        id,
        recordSchema.parse({ ...donor, id, supersedes: [], access: { ...donor.access, purposes: [NO_ONES_PURPOSE] } }),
      );
      touched.add(id);
      continue;
    }
    const target = candidates[change.pick % Math.max(candidates.length, 1)];
    const current = target === undefined ? undefined : byId.get(target.id);
    if (current === undefined) continue;
    touched.add(current.id);
    if (change.kind === 'remove') {
      byId.delete(current.id);
      continue;
    }
    if (change.kind === 'dangle') {
      byId.set(current.id, { ...current, supersedes: [...current.supersedes, `gone-${current.id}`] });
      continue;
    }
    if (change.kind === 'cycle') {
      const partner = byId.get(candidates[change.other % candidates.length]?.id ?? '') ?? current;
      touched.add(partner.id);
      byId.set(current.id, { ...current, supersedes: [...new Set([...current.supersedes, partner.id])] });
      const updatedPartner = byId.get(partner.id) ?? partner;
      byId.set(partner.id, { ...updatedPartner, supersedes: [...new Set([...updatedPartner.supersedes, current.id])] });
      continue;
    }
    if (donor === undefined) continue;
    const copied = Object.fromEntries(change.fields.map((field) => [field, donor[field]]));
    byId.set(current.id, recordSchema.parse({ ...current, ...copied }));
  }
  return touched.size === 0 ? null : { records: [...byId.values()], touched };
}

/**
 * The change of `input`'s withheld records that the noninterference properties judge, or null when there is none
 * to judge: the inputs do not compile, no record could be changed, or the change lifted what withheld a record it
 * touched (that record is then one the caller may see: not this property's case).
 */
export async function stillWithheldChange(
  compiler: Compiler,
  input: WithheldCase,
): Promise<{ records: SourceRecord[]; touched: Set<string> } | null> {
  const before = await compiler.compile({ contract: input.contract, recordSet: createRecordSet(input.records) });
  if (!before.ok) return null;
  const changed = applyWithheldChanges(input, before.value);
  if (changed === null) return null;
  const after = await compiler.compile({ contract: input.contract, recordSet: createRecordSet(changed.records) });
  const stillWithheld = after.ok ? withheldIds(after.value) : new Set<string>();
  return [...changed.touched].every(
    (id) => stillWithheld.has(id) || !changed.records.some((record) => record.id === id),
  )
    ? changed
    : null;
}

/**
 * A user-view text with the withheld count masked wherever it states it: the one thing a change to withheld
 * records may move. A count of 0 states no notice at all, so the notice line goes whole.
 */
export function maskWithheldCount(text: string): string {
  return text
    .replace(/^\d+ records? (?:is|are) outside the authorised scope\.(?:\n|$)/gm, '')
    .replace(/ · withheld \d+ · /g, ' · withheld <n> · ')
    .replace(
      /^view: user \((?:no record is withheld|\d+ records? (?:is|are) outside the authorised scope and not named);/gm,
      'view: user (<withheld>;',
    );
}
