import { sha256 } from './sha256';
import fc from 'fast-check';
import type { Compiler } from '../compile';
import { discloseOutcome, isWithheldFromUser } from '../disclosure';
import type { Contract } from '../format/contract';
import { LIFECYCLE_STATES, recordSchema, REVIEW_STATES, type SourceRecord } from '../format/record';
import { isInForce } from '../phases/2-resolve/resolve';
import { checkRecords, createRecordSet } from '../phases/1-validate/validate';
import type { CompileOutcome } from '../result';
import { parseInstant } from '../format/time';
import { caseArbitrary, INSTANTS, PROPERTY_AS_OF, VOCABULARY } from './arbitraries';

/**
 * Mutations of the records a caller may not see (withheld from the user view: they fail authorisation or
 * carry a denied label), for the noninterference properties of every output of the user view. A case is a
 * generated contract and records plus a few records made withheld; `applyWithheldMutations` changes only
 * withheld records and says which it touched, so a test can compile before and after and compare what
 * the user view shows (`withheldChange` does both). `crossing` mutations link a withheld record to a visible
 * one: the one declared exception to noninterference (docs/FORMAT.md), which the other mutations never produce.
 * `donorCopies` adds copies of several fields at once from another case's record: values no single-field edit
 * draws, such as a whole provenance or access.
 */

/**
 * A field of a record and a value for it; `access.*` fields may make the record visible (the case is then not about a
 * withheld record).
 */
export type FieldEdit =
  | { readonly field: 'title' | 'text'; readonly value: string }
  | { readonly field: 'tokens'; readonly value: number }
  | { readonly field: 'relevance'; readonly value: number | null }
  | { readonly field: 'knownAt' | 'validFrom'; readonly value: string }
  | { readonly field: 'validTo'; readonly value: string | null }
  | { readonly field: 'lifecycle'; readonly value: SourceRecord['lifecycle'] }
  | { readonly field: 'reviewState'; readonly value: SourceRecord['reviewState'] }
  | { readonly field: 'project' | 'scope' | 'sensitivity' | 'sourceClass' | 'authorityClass'; readonly value: string }
  | { readonly field: 'subject'; readonly value: string | null }
  | { readonly field: 'provenance'; readonly value: null }
  | { readonly field: 'evidence'; readonly value: SourceRecord['evidence'] }
  | { readonly field: 'access.labels' | 'access.roles' | 'access.purposes'; readonly value: readonly string[] };

export type WithheldMutation =
  /** Change one field of a withheld record. */
  | { readonly kind: 'edit'; readonly pick: number; readonly edit: FieldEdit }
  /** Add a withheld record (from a donor), optionally superseding an absent id, itself, or another withheld record. */
  | {
      readonly kind: 'add';
      readonly pick: number;
      readonly link: 'none' | 'dangling' | 'self' | 'withheld';
      readonly other: number;
    }
  /** Copy these fields from a donor record into a withheld record, all at once. */
  | { readonly kind: 'copy'; readonly pick: number; readonly donor: number; readonly fields: readonly string[] }
  /** Remove a withheld record that neither a visible record nor the contract names. */
  | { readonly kind: 'remove'; readonly pick: number }
  /** Break a withheld record's links: an absent target, itself, or a cycle with another withheld record. */
  | { readonly kind: 'dangle' | 'self'; readonly pick: number }
  | { readonly kind: 'cycle' | 'chain'; readonly pick: number; readonly other: number }
  /** Crossing: a withheld record supersedes a visible one (in force, or not, or round a cycle). */
  | {
      readonly kind: 'supersede-visible';
      readonly pick: number;
      readonly visible: number;
      readonly inForce: boolean;
      readonly closeCycle: boolean;
    };

export interface WithheldCase {
  readonly contract: Contract;
  /** The generated records and the records made withheld, in one list. */
  readonly records: readonly SourceRecord[];
  /** Records to draw additions from. */
  readonly donors: readonly SourceRecord[];
  readonly mutations: readonly WithheldMutation[];
}

/**
 * A purpose no contract releases: a record released only for it fails the authorisation gate whatever else it carries.
 */
export const WITHHELD_PURPOSE = 'nobody-may-read';

/** A record the caller may not see: released only for a purpose no contract has. */
export function madeWithheld(record: SourceRecord, id: string): SourceRecord {
  return { ...record, id, supersedes: [], access: { ...record.access, purposes: [WITHHELD_PURPOSE] } };
}

const words = fc
  .array(fc.constantFrom(...VOCABULARY.words, 'secret', 'merger', 'layoff'), { minLength: 1, maxLength: 8 })
  .map((list) => list.join(' '));
const instant = fc.constantFrom(...INSTANTS);

export const fieldEditArbitrary: fc.Arbitrary<FieldEdit> = fc.oneof(
  fc.record({ field: fc.constantFrom('title' as const, 'text' as const), value: words }),
  fc.record({ field: fc.constant('tokens' as const), value: fc.integer({ min: 0, max: 80 }) }),
  fc.record({ field: fc.constant('relevance' as const), value: fc.option(fc.integer({ min: 0, max: 9 })) }),
  fc.record({ field: fc.constantFrom('knownAt' as const, 'validFrom' as const), value: instant }),
  fc.record({ field: fc.constant('validTo' as const), value: fc.option(instant) }),
  fc.record({ field: fc.constant('lifecycle' as const), value: fc.constantFrom(...LIFECYCLE_STATES) }),
  fc.record({ field: fc.constant('reviewState' as const), value: fc.constantFrom(...REVIEW_STATES) }),
  fc.record({ field: fc.constant('project' as const), value: fc.constantFrom(...VOCABULARY.projects) }),
  fc.record({ field: fc.constant('scope' as const), value: fc.constantFrom(...VOCABULARY.scopes) }),
  fc.record({ field: fc.constant('sensitivity' as const), value: fc.constantFrom(...VOCABULARY.sensitivities) }),
  fc.record({ field: fc.constant('sourceClass' as const), value: fc.constantFrom(...VOCABULARY.sourceClasses) }),
  fc.record({ field: fc.constant('authorityClass' as const), value: fc.constantFrom(...VOCABULARY.authorityClasses) }),
  fc.record({ field: fc.constant('subject' as const), value: fc.constantFrom(...VOCABULARY.recordSubjects) }),
  fc.record({ field: fc.constant('provenance' as const), value: fc.constant(null) }),
  fc.record({
    field: fc.constant('evidence' as const),
    value: fc.option(
      fc.record({
        class: fc.constantFrom(...VOCABULARY.evidenceClasses),
        supports: fc.subarray([...VOCABULARY.propositions]),
        contradicts: fc.subarray([...VOCABULARY.propositions]),
      }),
    ),
  }),
  fc.record({ field: fc.constant('access.labels' as const), value: fc.subarray([...VOCABULARY.labels]) }),
  fc.record({
    field: fc.constant('access.roles' as const),
    value: fc.subarray([...VOCABULARY.roles], { minLength: 1 }),
  }),
  fc.record({
    field: fc.constant('access.purposes' as const),
    value: fc.subarray([...VOCABULARY.purposes, WITHHELD_PURPOSE], { minLength: 1 }),
  }),
);

/** Mutations that keep to withheld records: what may never change the user view beyond its withheld count. */
export const withheldMutationArbitrary: fc.Arbitrary<WithheldMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), edit: fieldEditArbitrary }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      pick: fc.nat(),
      link: fc.constantFrom('none' as const, 'dangling' as const, 'self' as const, 'withheld' as const),
      other: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('dangle' as const, 'self' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cycle' as const), pick: fc.nat(), other: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('chain' as const), pick: fc.nat(), other: fc.nat() }) },
);

/** Every field of a record but its id and its supersession links: what a donor copy may carry over. */
const COPYABLE_FIELDS = Object.keys(recordSchema.shape).filter((field) => field !== 'id' && field !== 'supersedes');

const donorCopyArbitrary: fc.Arbitrary<WithheldMutation> = fc.record({
  kind: fc.constant('copy' as const),
  pick: fc.nat(),
  donor: fc.nat(),
  fields: fc.subarray(COPYABLE_FIELDS, { minLength: 1 }),
});

/** A withheld record superseding a visible one: the declared exception. */
const supersedeVisibleArbitrary: fc.Arbitrary<WithheldMutation> = fc.record({
  kind: fc.constant('supersede-visible' as const),
  pick: fc.nat(),
  visible: fc.nat(),
  inForce: fc.boolean(),
  closeCycle: fc.boolean(),
});

export interface WithheldCaseOptions {
  /** Now and then a withheld record supersedes a visible one (the declared exception): a third of the mutations. */
  readonly crossing?: boolean;
  /** Donor copies of several fields at once, as a third of the mutations that keep to withheld records. */
  readonly donorCopies?: boolean;
}

/** Cases of withheld records and their mutations: those that keep to withheld records, and the options' others. */
export function withheldCases({
  crossing = false,
  donorCopies = false,
}: WithheldCaseOptions = {}): fc.Arbitrary<WithheldCase> {
  const kept = donorCopies
    ? fc.oneof({ weight: 2, arbitrary: withheldMutationArbitrary }, { weight: 1, arbitrary: donorCopyArbitrary })
    : withheldMutationArbitrary;
  const mutations = crossing
    ? fc.oneof({ weight: 2, arbitrary: kept }, { weight: 1, arbitrary: supersedeVisibleArbitrary })
    : kept;
  return fc
    .tuple(
      caseArbitrary,
      caseArbitrary,
      fc.array(fc.nat(), { maxLength: 3 }),
      fc.array(mutations, { minLength: 1, maxLength: 4 }),
    )
    .map(([base, donor, extra, list]) => {
      // Some of the donor's records, withheld, so every case has records the caller may not see.
      const withheld = extra.flatMap((pick, index) => {
        const source = donor.records[pick % donor.records.length];
        return source === undefined ? [] : [madeWithheld(source, `h${index}`)];
      });
      return {
        contract: base.contract,
        records: [...base.records, ...withheld],
        donors: donor.records,
        mutations: list,
      };
    });
}

export const withheldCaseArbitrary: fc.Arbitrary<WithheldCase> = withheldCases();
export const crossingCaseArbitrary: fc.Arbitrary<WithheldCase> = withheldCases({ crossing: true });

/** The ids the user view of this compilation withholds, or null when it does not compile. */
export async function withheldIdsOf(
  compiler: Compiler,
  contract: Contract,
  records: readonly SourceRecord[],
): Promise<Set<string> | null> {
  const compiled = await compiler.compile({ contract, recordSet: createRecordSet(sha256, records) });
  if (!compiled.ok) return null;
  return new Set(compiled.value.trace.filter(isWithheldFromUser).map((row) => row.id));
}

/**
 * The case's records with every visible target taken out of the withheld records' `supersedes`, so the
 * case starts with no crossing link; a withheld record's links do not decide whether it is withheld.
 */
export function withoutCrossingLinks(records: readonly SourceRecord[], withheld: ReadonlySet<string>): SourceRecord[] {
  return records.map((record) =>
    withheld.has(record.id) && record.supersedes.some((target) => !withheld.has(target))
      ? { ...record, supersedes: record.supersedes.filter((target) => withheld.has(target)) }
      : record,
  );
}

function withEdit(record: SourceRecord, edit: FieldEdit): SourceRecord {
  switch (edit.field) {
    case 'access.labels':
      return { ...record, access: { ...record.access, labels: [...edit.value] } };
    case 'access.roles':
      return { ...record, access: { ...record.access, roles: [...edit.value] } };
    case 'access.purposes':
      return { ...record, access: { ...record.access, purposes: [...edit.value] } };
    default:
      return { ...record, [edit.field]: edit.value };
  }
}

export interface MutatedRecords {
  readonly records: SourceRecord[];
  /** Ids of the withheld records changed, added or removed. */
  readonly touched: ReadonlySet<string>;
}

/**
 * Applies the mutations to the withheld records (`withheld`, as the user view of `records` withholds them).
 * A visible record is never changed (a crossing mutation closes a cycle only through a visible record that
 * already leads to the withheld one), and a record that a visible record or the contract names is never
 * removed: the caller's own record or contract names it, and its absence is what they would see (a
 * dangling link, a required record not found). Null when nothing was changed.
 */
export function applyWithheldMutations(
  input: WithheldCase,
  records: readonly SourceRecord[],
  withheld: ReadonlySet<string>,
): MutatedRecords | null {
  const byId = new Map(records.map((record) => [record.id, record]));
  const visible = records.filter((record) => !withheld.has(record.id)).map((record) => record.id);
  const named = new Set([
    ...input.contract.requiredRecords,
    ...records.filter((record) => !withheld.has(record.id)).flatMap((record) => record.supersedes),
  ]);
  const hidden = () => [...byId.keys()].filter((id) => withheld.has(id) || id.startsWith('added-'));
  const touched = new Set<string>();
  let added = 0;
  const patch = (id: string, change: (record: SourceRecord) => SourceRecord) => {
    const current = byId.get(id);
    if (current === undefined) return;
    byId.set(id, change(current));
    touched.add(id);
  };
  const link = (id: string, target: string) =>
    patch(id, (record) => ({ ...record, supersedes: [...new Set([...record.supersedes, target])] }));
  for (const mutation of input.mutations) {
    const candidates = hidden();
    const at = (pick: number) => candidates[pick % Math.max(candidates.length, 1)];
    const id = at(mutation.pick);
    switch (mutation.kind) {
      case 'add': {
        const donor = input.donors[mutation.pick % Math.max(input.donors.length, 1)];
        if (donor === undefined) break;
        const newId = `added-${added++}`;
        const other = at(mutation.other);
        const supersedes =
          mutation.link === 'dangling'
            ? [`gone-${newId}`]
            : mutation.link === 'self'
              ? [newId]
              : mutation.link === 'withheld' && other !== undefined
                ? [other]
                : [];
        byId.set(newId, { ...madeWithheld(donor, newId), supersedes });
        touched.add(newId);
        break;
      }
      case 'copy': {
        const donor = input.donors[mutation.donor % Math.max(input.donors.length, 1)];
        if (id === undefined || donor === undefined) break;
        const copied = Object.fromEntries(mutation.fields.map((field) => [field, donor[field as keyof SourceRecord]]));
        patch(id, (record) => recordSchema.parse({ ...record, ...copied }));
        break;
      }
      case 'remove':
        if (id !== undefined && !named.has(id)) {
          byId.delete(id);
          touched.add(id);
        }
        break;
      case 'edit':
        if (id !== undefined) patch(id, (record) => withEdit(record, mutation.edit));
        break;
      case 'dangle':
        if (id !== undefined) link(id, `gone-${id}`);
        break;
      case 'self':
        if (id !== undefined) link(id, id);
        break;
      case 'cycle':
      case 'chain': {
        const other = at(mutation.other);
        if (id === undefined || other === undefined) break;
        link(id, other);
        if (mutation.kind === 'cycle') link(other, id);
        break;
      }
      case 'supersede-visible': {
        if (id === undefined) break;
        // Closing a cycle: a visible record that already leads to the withheld one, so the new link closes it.
        const eligible = mutation.closeCycle ? visible.filter((target) => reaches(byId, target, id)) : visible;
        const target = eligible[mutation.visible % Math.max(eligible.length, 1)];
        if (target === undefined) break;
        link(id, target);
        if (mutation.inForce)
          patch(id, (record) => ({ ...record, lifecycle: 'active', knownAt: INSTANTS[0], validFrom: INSTANTS[0] }));
        break;
      }
    }
  }
  return touched.size === 0 ? null : { records: [...byId.values()], touched };
}

/** A case's records before and after its mutations, and the ids the mutations touched. */
export interface WithheldChange extends MutatedRecords {
  /** The case's records with no withheld record superseding a visible one (`withoutCrossingLinks`). */
  readonly before: SourceRecord[];
}

/**
 * The change of a case's withheld records that a noninterference property judges, or null when there is none to
 * judge: the inputs do not compile, nothing was changed, or a changed record is no longer withheld (an edit of its
 * access gave it to the caller: not this property's case).
 */
export async function withheldChange(compiler: Compiler, input: WithheldCase): Promise<WithheldChange | null> {
  const withheld = await withheldIdsOf(compiler, input.contract, input.records);
  if (withheld === null) return null;
  const before = withoutCrossingLinks(input.records, withheld);
  const mutated = applyWithheldMutations(input, before, withheld);
  if (mutated === null) return null;
  const stillWithheld = (await withheldIdsOf(compiler, input.contract, mutated.records)) ?? new Set<string>();
  const present = new Set(mutated.records.map((record) => record.id));
  return [...mutated.touched].some((id) => present.has(id) && !stillWithheld.has(id)) ? null : { before, ...mutated };
}

/**
 * The withheld records that supersede a visible one and take effect: in force at the as-of time, or on a
 * cycle with it (the visible record leads back to the withheld one). These pairs are the declared
 * exception; anything else a withheld record does must leave the user view alone.
 */
export function crossingSupersessions(
  records: readonly SourceRecord[],
  withheld: ReadonlySet<string>,
): { readonly successor: string; readonly superseded: string }[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  const asOf = parseInstant(PROPERTY_AS_OF) ?? 0;
  const pairs: { successor: string; superseded: string }[] = [];
  for (const item of checkRecords(sha256, records)) {
    if (!withheld.has(item.record.id)) continue;
    for (const target of item.record.supersedes) {
      if (withheld.has(target) || !byId.has(target)) continue;
      if (isInForce(item, asOf) || reaches(byId, target, item.record.id))
        pairs.push({ successor: item.record.id, superseded: target });
    }
  }
  return pairs;
}

/** Whether `from`'s supersession links lead, through any records, to `to`. */
function reaches(byId: ReadonlyMap<string, SourceRecord>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const target of byId.get(id)?.supersedes ?? []) {
      if (target === to) return true;
      stack.push(target);
    }
  }
  return false;
}

/**
 * What the user view of a compilation shows, but for the withheld count: its rows (with facts, order, scores and
 * ranks), the packet, the evidence and the failure.
 */
export function userViewOf(outcome: CompileOutcome): Record<string, unknown> {
  const view = discloseOutcome(outcome, 'user');
  return {
    status: outcome.status,
    packet:
      outcome.status === 'packet'
        ? { entries: outcome.packet.entries, body: outcome.packet.body, tokensUsed: outcome.packet.tokensUsed }
        : null,
    evidence: outcome.status === 'packet' ? outcome.evidence : null,
    decisionBlockedBy: outcome.status === 'packet' ? outcome.decisionBlockedBy : null,
    counts: { admitted: outcome.counts.admitted, selected: outcome.counts.selected },
    rows: view.rows,
    failureMessage: view.failureMessage,
  };
}

/**
 * The parts of the user view that differ between two compilations, each said in a line; empty when they show the same.
 */
export function userViewDifferences(before: CompileOutcome, after: CompileOutcome): string[] {
  const [left, right] = [userViewOf(before), userViewOf(after)];
  return Object.keys(left)
    .filter((key) => JSON.stringify(left[key]) !== JSON.stringify(right[key]))
    .map((key) => `${key}: ${JSON.stringify(left[key]).slice(0, 600)} → ${JSON.stringify(right[key]).slice(0, 600)}`);
}
