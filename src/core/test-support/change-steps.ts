import { sha256 } from './sha256';
import fc from 'fast-check';
import { canonicalJson } from '../canonical';
import type { CompileRequest } from '../compile';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { applyChanges } from '../controls';
import type { Contract, ContractInput } from '../format/contract';
import { LIFECYCLE_STATES, REVIEW_STATES, type RecordInput, type SourceRecord } from '../format/record';
import type { Control, Patch } from '../format/scenario';
import { contentHashOf } from '../fingerprints';
import type { TableStats } from '../memo';
import type { KeyRules } from '../compile';
import { serialiseReceipt } from '../phases/7-attest/attest';
import { GATE_FIELDS } from '../phases/4-admit/admit';
import { createRecordSet, type RecordSet } from '../phases/1-validate/validate';
import type { SqlDriver } from '../../adapters/sqlite/driver';
import {
  caseArbitrary,
  INSTANTS,
  principalArbitrary,
  propositionArbitrary,
  RECORD_IDS,
  subsetOf,
  textArbitrary,
  VOCABULARY,
} from './arbitraries';

/**
 * Changes as a scenario's controls make them, applied through `applyChanges` to a record set that is kept
 * from step to step (untouched records keep their objects, so the compiler's memo can reuse its work),
 * compiled by a compiler that is kept too, and compared with a fresh compiler given a fresh record set.
 * Every contract field and every record field has an edit: the maps below are typed over all the keys,
 * so a field added to the format without an edit here is a type error.
 */
/** A contract field's new value, worked out from the contract and records it applies to. */
type ContractEdit<K extends keyof Contract> = (
  contract: Contract,
  records: readonly SourceRecord[],
) => ContractInput[K];

const anyValue = <K extends keyof Contract>(value: fc.Arbitrary<ContractInput[K]>): fc.Arbitrary<ContractEdit<K>> =>
  value.map((chosen) => () => chosen);

/**
 * One element of `vocabulary` taken out of the list, or put in when absent (swapped for the next one when
 * taking it out would leave fewer than `minLength`): the list always changes, so a key that forgot the
 * field would hand back the old verdicts.
 */
function toggled<T>(current: readonly T[], vocabulary: readonly T[], choice: number, minLength: number): T[] {
  const value = vocabulary[choice % vocabulary.length] as T;
  if (!current.includes(value)) return [...current, value];
  if (current.length > minLength) return current.filter((item) => item !== value);
  return [...current.filter((item) => item !== value), vocabulary[(choice + 1) % vocabulary.length] as T];
}

type ListField =
  | 'scopes'
  | 'allowedSourceClasses'
  | 'allowedAuthorityClasses'
  | 'acceptedReviewStates'
  | 'forbiddenLifecycle'
  | 'forbiddenSensitivity'
  | 'denyLabels'
  | 'requiredRecords';

const toggle = <K extends ListField>(
  field: K,
  vocabulary: (records: readonly SourceRecord[]) => readonly string[],
  minLength = 0,
): fc.Arbitrary<ContractEdit<K>> =>
  fc
    .nat()
    .map(
      (choice) => (contract, records) =>
        toggled<string>(contract[field], vocabulary(records), choice, minLength) as ContractInput[K],
    );

const words = (list: readonly string[]) => () => list;

/** A value other than the current one. */
const another = <K extends keyof Contract>(field: K, values: readonly Contract[K][]): fc.Arbitrary<ContractEdit<K>> =>
  fc.nat().map((choice) => (contract) => {
    const others = values.filter((value) => value !== contract[field]);
    return (others[choice % Math.max(others.length, 1)] ?? values[0]) as ContractInput[K];
  });

const CONTRACT_EDITS: { readonly [K in keyof Contract]-?: fc.Arbitrary<ContractEdit<K>> } = {
  task: another('task', ['Generated task', 'Another task']),
  query: anyValue(textArbitrary),
  asOf: another('asOf', INSTANTS),
  principals: anyValue(fc.array(principalArbitrary, { minLength: 1, maxLength: 3 })),
  purpose: another('purpose', VOCABULARY.purposes),
  project: another('project', VOCABULARY.projects),
  scopes: toggle('scopes', words(VOCABULARY.scopes), 1),
  // `Jo` names two identities: resolve refuses the contract, and the kept compiler must refuse it the same way.
  subject: another('subject', VOCABULARY.recordSubjects),
  identities: fc.nat().map((choice) => (contract) => {
    const ids = toggled(
      contract.identities.map((identity) => identity.id),
      VOCABULARY.identities.map((identity) => identity.id),
      choice,
      0,
    );
    return VOCABULARY.identities
      .filter((identity) => ids.includes(identity.id))
      .map((identity) => ({ id: identity.id, aliases: [...identity.aliases] }));
  }),
  allowedSourceClasses: toggle('allowedSourceClasses', words(VOCABULARY.sourceClasses), 1),
  allowedAuthorityClasses: toggle('allowedAuthorityClasses', words(VOCABULARY.authorityClasses), 1),
  acceptedReviewStates: toggle('acceptedReviewStates', words(REVIEW_STATES), 1),
  forbiddenLifecycle: toggle('forbiddenLifecycle', words(LIFECYCLE_STATES)),
  forbiddenSensitivity: toggle('forbiddenSensitivity', words(VOCABULARY.sensitivities)),
  // A label some record carries, when one does: a change the deny gate is sure to see.
  denyLabels: toggle('denyLabels', (records) => {
    const carried = [...new Set(records.flatMap((record) => record.access.labels))];
    return carried.length > 0 ? carried : VOCABULARY.labels;
  }),
  requiredRecords: toggle('requiredRecords', words(RECORD_IDS.slice(0, 4))),
  requiredPropositions: fc
    .tuple(
      fc.nat(),
      propositionArbitrary('p1'),
      propositionArbitrary('p2'),
      propositionArbitrary('p3'),
      fc.constantFrom('', 'why it matters'),
    )
    .map(([choice, p1, p2, p3, description]) => (contract) => {
      const ids = toggled(
        contract.requiredPropositions.map((proposition) => proposition.id),
        ['p1', 'p2', 'p3'],
        choice,
        0,
      );
      return [p1, p2, p3]
        .filter((proposition) => ids.includes(proposition.id))
        .map((proposition) => ({ ...proposition, description }));
    }),
  typedEvidenceOnly: fc.constant((contract: Contract) => !contract.typedEvidenceOnly),
  tokenBudget: anyValue(fc.integer({ min: 0, max: 200 })),
  naiveTopK: anyValue(fc.integer({ min: 1, max: 8 })),
  ranking: another('ranking', ['bm25', 'declared']),
};

/**
 * A record field's new value, worked out from the record it patches (a content hash has to match the text it covers).
 */
type RecordEdit<K extends keyof SourceRecord> = (record: SourceRecord) => RecordInput[K];

const constant = <K extends keyof SourceRecord>(value: fc.Arbitrary<RecordInput[K]>): fc.Arbitrary<RecordEdit<K>> =>
  value.map((chosen) => () => chosen);

const RECORD_EDITS: { readonly [K in keyof SourceRecord]-?: fc.Arbitrary<RecordEdit<K>> } = {
  // A patch may not rename a record: applyChanges refuses it, and nothing is compiled.
  id: constant(fc.constant('renamed')),
  title: constant(textArbitrary),
  text: constant(textArbitrary),
  tokens: constant(fc.integer({ min: 0, max: 60 })),
  project: constant(fc.constantFrom(...VOCABULARY.projects)),
  scope: constant(fc.constantFrom(...VOCABULARY.scopes)),
  // A merge patch cannot set null (null removes the field, and a record's subject has no default).
  subject: constant(fc.constantFrom(...VOCABULARY.recordSubjects.filter((subject) => subject !== null))),
  knownAt: constant(fc.constantFrom(...INSTANTS)),
  validFrom: constant(fc.constantFrom(...INSTANTS)),
  validTo: constant(fc.constantFrom(null, ...INSTANTS)),
  lifecycle: constant(fc.constantFrom(...LIFECYCLE_STATES)),
  // Targets among all generated ids: a missing one, the record itself or a cycle are all possible.
  supersedes: constant(subsetOf(RECORD_IDS, 0)),
  sourceClass: constant(fc.constantFrom(...VOCABULARY.sourceClasses)),
  authorityClass: constant(fc.constantFrom(...VOCABULARY.authorityClasses)),
  reviewState: constant(fc.constantFrom(...REVIEW_STATES)),
  provenance: fc.constantFrom('missing', 'verified', 'wrong-hash').map((kind): RecordEdit<'provenance'> => (record) => {
    if (kind === 'missing') return null;
    return {
      origin: `sys/${record.id}`,
      contentHash: contentHashOf(sha256, kind === 'verified' ? record.text : `${record.text}!`),
    };
  }),
  sensitivity: constant(fc.constantFrom(...VOCABULARY.sensitivities)),
  access: constant(
    fc.record({
      roles: subsetOf(VOCABULARY.roles, 1),
      purposes: subsetOf(VOCABULARY.purposes, 1),
      labels: subsetOf(VOCABULARY.labels),
    }),
  ),
  evidence: constant(
    fc.option(
      fc.record({
        class: fc.constantFrom(...VOCABULARY.evidenceClasses),
        supports: subsetOf(VOCABULARY.propositions),
        contradicts: subsetOf(VOCABULARY.propositions),
      }),
      { freq: 3 },
    ),
  ),
  relevance: constant(fc.option(fc.integer({ min: 0, max: 5 }), { freq: 3 })),
};

type ContractField = keyof Contract;
type RecordField = keyof SourceRecord;

const CONTRACT_FIELDS = Object.keys(CONTRACT_EDITS) as ContractField[];
const RECORD_FIELDS = Object.keys(RECORD_EDITS) as RecordField[];
/** Record fields that decide which successor is in force: an edit of one can change how other records resolve. */
const SUPERSESSION_FIELDS: ReadonlySet<RecordField> = new Set(['supersedes', 'lifecycle', 'knownAt', 'validFrom']);
const GATE_FIELD_SET: ReadonlySet<string> = new Set(GATE_FIELDS);

export type ChangeStep =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'contract';
      readonly field: ContractField;
      readonly edit: (contract: Contract, records: readonly SourceRecord[]) => unknown;
    }
  /** The field set back to what it was before its edit, as a control switched off again. */
  | { readonly kind: 'contract-back'; readonly field: ContractField }
  | {
      readonly kind: 'record';
      readonly position: number;
      readonly field: RecordField;
      readonly edit: (record: SourceRecord) => unknown;
    }
  | { readonly kind: 'add'; readonly position: number }
  | { readonly kind: 'remove'; readonly position: number };

type Slot =
  { readonly kind: 'contract' | 'record'; readonly at: number } | { readonly kind: 'none' | 'add' | 'remove' };

/**
 * Every contract field and every record field edited once per case, in a random order, with a few other changes among
 * them.
 */
const SLOTS: readonly Slot[] = [
  ...CONTRACT_FIELDS.map((_, at) => ({ kind: 'contract' as const, at })),
  ...RECORD_FIELDS.map((_, at) => ({ kind: 'record' as const, at })),
  { kind: 'none' },
  { kind: 'add' },
  { kind: 'remove' },
];

type AnyContractEdit = (contract: Contract, records: readonly SourceRecord[]) => unknown;
type AnyRecordEdit = (record: SourceRecord) => unknown;

export const changeScheduleArbitrary: fc.Arbitrary<readonly ChangeStep[]> = fc
  .tuple(
    fc.shuffledSubarray([...SLOTS], { minLength: SLOTS.length, maxLength: SLOTS.length }),
    fc.tuple(...CONTRACT_FIELDS.map((field) => CONTRACT_EDITS[field] as fc.Arbitrary<AnyContractEdit>)),
    fc.tuple(...RECORD_FIELDS.map((field) => RECORD_EDITS[field] as fc.Arbitrary<AnyRecordEdit>)),
    fc.array(fc.nat(20), { minLength: SLOTS.length, maxLength: SLOTS.length }),
  )
  .map(([slots, contractEdits, recordEdits, positions]) =>
    slots.flatMap((slot, index): ChangeStep[] => {
      const position = positions[index] ?? 0;
      if (slot.kind === 'contract') {
        const field = CONTRACT_FIELDS[slot.at] as ContractField;
        return [
          { kind: 'contract', field, edit: contractEdits[slot.at] as AnyContractEdit },
          { kind: 'contract-back', field },
        ];
      }
      if (slot.kind === 'record')
        return [
          {
            kind: 'record',
            position,
            field: RECORD_FIELDS[slot.at] as RecordField,
            edit: recordEdits[slot.at] as AnyRecordEdit,
          },
        ];
      return [slot.kind === 'none' ? { kind: 'none' } : { kind: slot.kind, position }];
    }),
  );

function patchesOf(
  step: ChangeStep,
  contract: Contract,
  recordSet: RecordSet,
  other: readonly SourceRecord[],
  added: number,
  before: ReadonlyMap<ContractField, unknown>,
): Patch[] {
  const at = (position: number) => recordSet.records[position % Math.max(recordSet.records.length, 1)];
  switch (step.kind) {
    case 'none':
      return [];
    case 'contract':
      return [{ op: 'mergeContract', patch: { [step.field]: step.edit(contract, recordSet.records) } }];
    case 'contract-back':
      return [{ op: 'mergeContract', patch: { [step.field]: before.get(step.field) ?? null } }];
    case 'record': {
      const record = at(step.position);
      return record === undefined
        ? []
        : [{ op: 'mergeRecord', id: record.id, patch: { [step.field]: step.edit(record) } }];
    }
    case 'add': {
      const source = other[step.position % Math.max(other.length, 1)];
      return source === undefined
        ? []
        : [{ op: 'addRecord', record: { ...source, id: `added-${added}`, supersedes: [] } }];
    }
    case 'remove': {
      const record = at(step.position);
      // Keep one record: a compilation over none says little about reuse.
      return record === undefined || recordSet.records.length < 2 ? [] : [{ op: 'removeRecord', id: record.id }];
    }
  }
}

function controlOf(patches: Patch[]): Control {
  return { id: 'step', label: 'step', explanation: 'a generated change', patches };
}

/** What a compilation shows: the receipt bytes, the trace rows, the counts and the baselines; or the error. */
export async function observable(compiler: SqliteCompiler, request: CompileRequest): Promise<unknown> {
  const result = await compiler.compile(request);
  if (!result.ok) return { error: result.error };
  const { receipt, trace, counts, status, admitted } = result.value;
  return {
    status,
    receipt: serialiseReceipt(receipt),
    trace,
    counts,
    admitted: [...admitted].sort(),
    baselines: compiler.baselines(request, result.value),
  };
}

function same(actual: unknown, expected: unknown, what: string): void {
  const [a, b] = [canonicalJson(actual), canonicalJson(expected)];
  if (a !== b) throw new Error(`${what} differ:\n  got      ${a.slice(0, 2_000)}\n  expected ${b.slice(0, 2_000)}`);
}

/**
 * How much a step must let the memo reuse, given what the last compilation computed (`before`) and this
 * one (`after`): a table the last compilation did not reach has nothing to reuse. `records` is the count
 * after the step. Returns the problems found, none when the reuse is as expected.
 */
function reuseProblems(
  step: ChangeStep,
  records: number,
  before: ReadonlyMap<string, TableStats>,
  after: ReadonlyMap<string, TableStats>,
): string[] {
  const problems: string[] = [];
  const expect = (table: string, maxComputed: number) => {
    const now = after.get(table);
    if (now === undefined || !before.has(table)) return;
    if (now.computed > maxComputed || now.reused < records - maxComputed || now.reused === 0) {
      problems.push(
        `${table}: reused ${now.reused}, computed ${now.computed} of ${records} (at most ${maxComputed} should be computed)`,
      );
    }
  };
  if (records === 0) return problems;
  if (step.kind === 'none') {
    for (const table of ['resolve:records', 'admit:gates', 'plan:refused']) expect(table, 0);
    // Counted in chunks of the record-set tree, which has one whenever there is a record: none is hashed again.
    // (The trace's trees may be: a failing required record's row is a new object at every compilation.)
    const recordTree = after.get('attest:records');
    if (
      recordTree !== undefined &&
      before.has('attest:records') &&
      (recordTree.computed > 0 || recordTree.reused === 0)
    ) {
      problems.push(
        `attest:records: reused ${recordTree.reused}, computed ${recordTree.computed} chunks (none should be computed)`,
      );
    }
    // The same admitted set: admission's sets and the plan's admitted part are last compilation's.
    for (const cell of ['admit:admitted', 'plan:admitted']) {
      const now = after.get(cell);
      if (now !== undefined && before.has(cell) && (now.computed !== 0 || now.reused !== 1))
        problems.push(`${cell}: reused ${now.reused}, computed ${now.computed} (it should be reused)`);
    }
  } else if ((step.kind === 'contract' || step.kind === 'contract-back') && !GATE_FIELD_SET.has(step.field)) {
    // Outside the gate fields (requiredRecords, the one input of a refused row, is among them): nothing per record
    // changes.
    for (const table of ['resolve:records', 'admit:gates', 'plan:refused']) expect(table, 0);
  } else if ((step.kind === 'record' && !SUPERSESSION_FIELDS.has(step.field)) || step.kind === 'add') {
    // One record is new; every other one keeps its resolution and its verdict.
    if (records >= 2) {
      expect('resolve:records', 1);
      expect('admit:gates', 1);
    }
  }
  return problems;
}

/**
 * The memo property: after every change applied to the kept inputs, the kept compiler's observable result
 * equals a fresh compiler's on a freshly built record set, and the memo reused what the change left alone.
 * `keys` leaves inputs out of the memo's keys, for the test that shows the property then fails.
 */
export async function memoProperty(openDatabase: () => Promise<SqlDriver>, keys?: KeyRules) {
  const kept = createSqliteCompiler(sha256, await openDatabase(), keys);
  return fc.asyncProperty(caseArbitrary, caseArbitrary, changeScheduleArbitrary, async (first, other, steps) => {
    let contract = first.contract;
    let recordSet = createRecordSet(sha256, first.records);
    let before: ReadonlyMap<string, TableStats> = new Map();
    let added = 0;
    const edited = new Map<ContractField, unknown>();
    // The first compilation fills the memo; the 'none' step after it must reuse everything.
    for (const step of [{ kind: 'none' } as const, { kind: 'none' } as const, ...steps]) {
      if (step.kind === 'contract') edited.set(step.field, contract[step.field]);
      const patches = patchesOf(step, contract, recordSet, other.records, added, edited);
      const changed = applyChanges(sha256, contract, recordSet, patches.length === 0 ? [] : [controlOf(patches)]);
      if (!changed.ok) {
        // The one edit refused on purpose: a patch may not rename a record.
        if (step.kind === 'record' && step.field === 'id') continue;
        throw new Error(`applyChanges refused a generated ${step.kind} change: ${changed.error.message}`);
      }
      if (step.kind === 'add') added += 1;
      ({ contract, recordSet } = changed.value);
      const request = { contract, recordSet };
      const fresh = createSqliteCompiler(sha256, await openDatabase());
      const what = `a ${step.kind} change${step.kind === 'record' || step.kind === 'contract' || step.kind === 'contract-back' ? ` of ${step.field}` : ''}`;
      same(
        await observable(kept, request),
        await observable(fresh, { contract, recordSet: createRecordSet(sha256, recordSet.records) }),
        `kept and fresh compilations after ${what}`,
      );
      const after = new Map(kept.memoStats());
      const problems = reuseProblems(step, recordSet.records.length, before, after);
      if (problems.length > 0) throw new Error(`after ${what}, the memo did not reuse: ${problems.join('; ')}`);
      before = after;
    }
  });
}
