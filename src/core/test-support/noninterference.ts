import { sha256 } from './sha256';
import fc from 'fast-check';
import type { Compiler } from '../compile';
import { discloseOutcome } from '../disclosure';
import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { createRecordSet } from '../phases/1-validate/validate';
import type { Attestation, CompileOutcome } from '../result';
import { caseArbitrary, VOCABULARY } from './arbitraries';

/**
 * Noninterference, as a property: nothing the caller may not see changes what the caller gets.
 *
 * Start from a generated case and change records that fail a gate (and that no admitted record
 * depends on): their title, text or labels, or add such records, or remove them. Then everything the
 * caller gets must be the same: the packet (ids, order, text, tokens), every other record's trace row
 * (decision, code, fact, rank, score), the evidence slots, the failure, the ranking statistics, and the
 * user view but for the withheld count. What may change, and nothing else: the changed records' own
 * rows, the rows of records they supersede (and a failure about such a record, whose wording in the
 * user view may name the successor or withhold it), the candidate and excluded counts, the withheld
 * count, the record-set digest and the receipt id. A `candidates` receipt (which counts the rows it
 * leaves out, per reason) may change those counts too, but never the admitted set's digest, and it names
 * no refused record but a required one.
 */

export type Change =
  | { readonly kind: 'retitle' | 'retext'; readonly pick: number; readonly words: readonly string[] }
  | { readonly kind: 'relabel'; readonly pick: number; readonly labels: readonly string[] }
  | { readonly kind: 'add'; readonly pick: number }
  | { readonly kind: 'remove'; readonly pick: number };

export interface NoninterferenceCase {
  readonly contract: Contract;
  readonly records: readonly SourceRecord[];
  /** Records to draw additions from (another generated case's). */
  readonly donors: readonly SourceRecord[];
  readonly changes: readonly Change[];
}

const words = fc.array(fc.constantFrom(...VOCABULARY.words, 'secret', 'merger', 'layoff'), {
  minLength: 1,
  maxLength: 8,
});

export const changeArbitrary: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constantFrom('retitle' as const, 'retext' as const), pick: fc.nat(), words }),
  fc.record({ kind: fc.constant('relabel' as const), pick: fc.nat(), labels: fc.subarray([...VOCABULARY.labels]) }),
  fc.record({ kind: fc.constant('add' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
);

export const noninterferenceArbitrary: fc.Arbitrary<NoninterferenceCase> = fc
  .tuple(caseArbitrary, caseArbitrary, fc.array(changeArbitrary, { minLength: 1, maxLength: 4 }))
  .map(([base, donor, changes]) => ({
    contract: base.contract,
    records: base.records,
    donors: donor.records,
    changes,
  }));

/** Everything the caller gets from one compilation, with the changed records' own rows left out. */
function callerView(outcome: CompileOutcome, unseen: ReadonlySet<string>): unknown {
  const { receipt } = outcome;
  const user = discloseOutcome(outcome, 'user');
  const { receiptId: _id, recordSetDigest: _digest, trace, omitted, ...body } = receipt;
  return {
    status: outcome.status,
    packet:
      outcome.status === 'packet'
        ? { entries: outcome.packet.entries, body: outcome.packet.body, tokensUsed: outcome.packet.tokensUsed }
        : null,
    evidence: outcome.status === 'packet' ? outcome.evidence : null,
    decisionBlockedBy: outcome.status === 'packet' ? outcome.decisionBlockedBy : null,
    failure: outcome.status === 'fail_closed' ? outcome.failure : null,
    // A failure about a record a changed successor supersedes may name that successor, or withhold it.
    userFailure:
      outcome.status === 'fail_closed' && unseen.has(outcome.failure.recordId ?? '') ? null : user.failureMessage,
    counts: { admitted: outcome.counts.admitted, selected: outcome.counts.selected },
    admitted: [...outcome.admitted].sort(),
    receipt: body,
    admittedDigest: omitted?.admittedDigest ?? null,
    rows: trace.filter((row) => !unseen.has(row.id)),
    user: user.rows.filter((row) => !unseen.has(row.id)),
  };
}

/**
 * Records that fail a gate, that the contract does not name, and that no record supersedes (removing
 * one would leave a dangling link). Title, text and labels do not decide supersession, so a changed
 * successor still supersedes what it did; only a removed one would set its targets free, so removal
 * is limited to records that supersede nothing.
 */
function changeable(outcome: CompileOutcome, records: readonly SourceRecord[], contract: Contract): SourceRecord[] {
  const failing = new Set(outcome.trace.filter((row) => row.gates.length > 0).map((row) => row.id));
  const targets = new Set(records.flatMap((record) => record.supersedes));
  const required = new Set(contract.requiredRecords);
  return records.filter((record) => failing.has(record.id) && !required.has(record.id) && !targets.has(record.id));
}

function apply(
  input: NoninterferenceCase,
  candidates: readonly SourceRecord[],
): { records: SourceRecord[]; touched: Set<string> } | null {
  const byId = new Map(input.records.map((record) => [record.id, record]));
  const touched = new Set<string>();
  let added = 0;
  for (const change of input.changes) {
    if (change.kind === 'add') {
      const donor = input.donors[change.pick % Math.max(input.donors.length, 1)];
      if (donor === undefined) continue;
      // Another project: it fails the first gate whatever else it carries.
      const id = `x-${added++}`;
      const project = VOCABULARY.projects.find((name) => name !== input.contract.project) ?? 'elsewhere';
      byId.set(id, { ...donor, id, project, supersedes: [] });
      touched.add(id);
      continue;
    }
    const target = candidates[change.pick % Math.max(candidates.length, 1)];
    const current = target === undefined ? undefined : byId.get(target.id);
    if (current === undefined || (change.kind === 'remove' && current.supersedes.length > 0)) continue;
    touched.add(current.id);
    if (change.kind === 'remove') byId.delete(current.id);
    else if (change.kind === 'relabel')
      byId.set(current.id, { ...current, access: { ...current.access, labels: [...change.labels] } });
    // An edited text no longer matches the content hash it was recorded with, as in a real edit.
    else
      byId.set(
        current.id,
        change.kind === 'retitle'
          ? { ...current, title: change.words.join(' ') }
          : { ...current, text: change.words.join(' ') },
      );
  }
  return touched.size === 0 ? null : { records: [...byId.values()], touched };
}

/**
 * Refused records a `candidates` receipt has rows for, but for the required ones (the one that stops a compile among
 * them).
 */
function namedRefused(outcome: CompileOutcome): string[] {
  return outcome.receipt.trace.filter((row) => row.gates.length > 0 && !row.required).map((row) => row.id);
}

/**
 * Compiles the case before and after its changes and says what differs that may not: an empty list
 * means the property holds. `null` means the case offers nothing to change (fast-check discards it).
 */
export async function noninterferenceDifferences(
  compiler: Compiler,
  input: NoninterferenceCase,
  attestation: Attestation = 'full',
): Promise<string[] | null> {
  const before = await compiler.compile({
    contract: input.contract,
    recordSet: createRecordSet(sha256, input.records),
    attestation,
  });
  if (!before.ok) return null;
  const changed = apply(input, changeable(before.value, input.records, input.contract));
  if (changed === null) return null;
  const after = await compiler.compile({
    contract: input.contract,
    recordSet: createRecordSet(sha256, changed.records),
    attestation,
  });
  if (!after.ok) return [`the changed records made compilation stop: ${after.error.code} ${after.error.message}`];
  const named = attestation === 'candidates' ? [before.value, after.value].flatMap(namedRefused) : [];
  if (named.length > 0) return [`a candidates receipt names refused records: ${named.join(', ')}`];
  // A relabelled record could pass every gate once its denied label is gone: then it is no longer a record the caller
  // may not see.
  const nowAdmitted = [...changed.touched].filter((id) => after.value.admitted.has(id));
  if (nowAdmitted.length > 0) return null;
  const superseded = new Set(
    changed.records.filter((record) => changed.touched.has(record.id)).flatMap((record) => record.supersedes),
  );
  const unseen = new Set([...changed.touched, ...superseded]);
  const a = JSON.stringify(callerView(before.value, unseen));
  const b = JSON.stringify(callerView(after.value, unseen));
  if (a === b) return [];
  const left = JSON.parse(a) as Record<string, unknown>;
  const right = JSON.parse(b) as Record<string, unknown>;
  return Object.keys(left)
    .filter((key) => JSON.stringify(left[key]) !== JSON.stringify(right[key]))
    .map((key) => `${key} changed: ${JSON.stringify(left[key])} → ${JSON.stringify(right[key])}`);
}
