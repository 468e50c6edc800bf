import { REASONS, type ReasonCode } from './reasons';

export interface EngineVersions {
  readonly receipt: string | null;
  readonly receiptSchema: string;
  readonly engine: string;
  readonly schema: string;
}

export interface SwitchesThenAndNow {
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  readonly nowControls: readonly string[];
  readonly nowLateChanges: readonly string[];
}

/** The catalogue's messages of the compile passes, the stores, the drill and the debugger: a part of `MESSAGES`. */
export const COMPILE_MESSAGES = {
  // Stops of the compile passes.
  REQUIRED_ABSENT_STOP: ({ record }: { record: string }) =>
    `Required record ${record} is absent: no packet is emitted.`,
  REQUIRED_UNAUTHORISED_STOP: ({ record }: { record: string }) =>
    `Required record ${record} is outside the authorised scope: no packet is emitted.`,
  REQUIRED_NO_PROVENANCE_STOP: ({ record, fact }: { record: string; fact: string }) =>
    `Required record ${record} has no verifiable provenance (${fact}): no packet is emitted.`,
  REQUIRED_GATE_STOP: ({ record, gate, fact }: { record: string; gate: string | null; fact: string }) =>
    `Required record ${record} fails the ${gate ?? 'a'} gate (${fact}): no packet is emitted.`,
  REQUIRED_OVER_BUDGET_STOP: ({ tokens, budget }: { tokens: number; budget: number }) =>
    `The required records need ${tokens} tokens but the budget is ${budget}: no packet is emitted.`,
  PROPOSITION_TWICE_STOP: ({ index, proposition }: { index: number; proposition: string }) =>
    `contract.requiredPropositions[${index}].id: proposition "${proposition}" is declared twice`,
  TYPED_EVIDENCE_STOP: () =>
    'contract.typedEvidenceOnly: admitting only typed evidence needs at least one required proposition',
  SUBJECT_AMBIGUOUS_STOP: ({ subject, identities }: { subject: string; identities: readonly string[] }) =>
    `contract subject "${subject}" matches ${identities.length} identities (${identities.join(', ')}): ` +
    `name one; it is never chosen by score`,
  ADMISSION_DISAGREEMENT: ({ record, detail }: { record: string; detail: string }) =>
    `Admission disagreement on ${record}: ${detail}. Nothing is emitted until the adapter and the ` +
    `reference evaluator agree.`,

  // Adapters and lowering.
  ADAPTER_LACKS: ({ adapter, missing, why }: { adapter: string; missing: readonly string[]; why: readonly string[] }) =>
    `The ${adapter} adapter does not preserve ${missing.join(', ')} (${why.join('; ')}). Refusing rather ` +
    `than approximating a gate.`,
  ADAPTER_CANNOT_LOWER: ({ adapter, op, gate }: { adapter: string; op: string; gate: string }) =>
    `The ${adapter} adapter cannot lower the operator ${op} (gate ${gate}). Refusing rather than dropping the gate.`,
  CLAUSE_MISTYPED: ({ gate }: { gate: string }) =>
    `The plan's ${gate} clause compares values of another type with its field. Refusing the plan.`,
  ADAPTER_NO_ANSWER: ({ adapter, problem }: { adapter: string; problem: string }) =>
    `The ${adapter} adapter returned no complete answer: ${problem}. No candidate is used.`,
  ANSWER_HAD_NO_ROW: () => 'the answer statement returned no row',
  ADAPTER_OTHER_PLAN: ({ adapter, executed, expected }: { adapter: string; executed: string; expected: string }) =>
    `The ${adapter} adapter executed plan ${executed}, not ${expected}: its candidates answer another ` +
    `plan. No candidate is used.`,
  ADAPTER_ROW_UNREADABLE: ({ adapter, column }: { adapter: string; column: string }) =>
    `The ${adapter} adapter returned a record row the gates cannot read: its ${column} is not what the layout holds.`,
  SHARDS_APART: ({ adapter, snapshot, shards }: { adapter: string; snapshot: string; shards: string }) =>
    `The ${adapter} adapter's shards are not all at the coordinator's snapshot ${snapshot} (${shards}): ` +
    `their rows would mix record sets. No candidate is used.`,
  LOWERING_NO_FORM: ({ store, op }: { store: string; op: string }) =>
    `The ${store} lowering has no form for the operator ${op}. Refusing rather than dropping a gate.`,
  LOWERING_TOO_MANY_VALUES: ({ needed, allowed }: { needed: number; allowed: number }) =>
    `The contract needs ${needed} bound values; this SQLite build allows ${allowed}. Refusing rather than ` +
    `dropping a gate.`,
  ANSWER_NO_REASON_CODE: ({ gate, op }: { gate: string; op: string }) =>
    `The PostgreSQL answer has no reason code for the ${gate} gate's ${op}. Refusing rather than guessing one.`,
  SERVER_TOO_OLD: ({ version }: { version: string | null }) =>
    `The PostgreSQL adapter needs PostgreSQL 15 or later; this server is ${version ?? 'unknown'}.`,
  DATABASE_RECORD_CHANGED: ({ table, record }: { table: string; record: string }) =>
    `${table}: record ${record} no longer matches the fingerprint it was loaded with; load the records file again`,
  LOAD_ROLLED_BACK: ({ problem }: { problem: string }) => `${problem}; the load was rolled back, nothing was written`,
  DELETION_ROLLED_BACK: ({ problem }: { problem: string }) =>
    `${problem}; the deletion was rolled back, nothing was deleted`,
  DATABASE_HOLDS_NO_RECORDS: () =>
    'the database holds no records: run `context-compiler load --database URL --records FILE.jsonl` first',
  DATABASE_OTHER_LAYOUT: ({ layout, current }: { layout: number; current: number }) =>
    `the database's records were loaded by another version (layout ${layout}, this is ${current}): load them again`,
  DATABASE_OPTION: ({ problem }: { problem: string }) => `--database: ${problem}`,
  CANNOT_CONNECT: ({ target, reason }: { target: string; reason: string }) => `cannot connect to ${target}: ${reason}`,
  DATABASE_FAILED: ({ database, reason }: { database: string; reason: string }) =>
    `the database ${database} failed: ${reason}`,

  // A refusal as the user view words it: by its reason code alone, since its own words may name a withheld record.
  REASON_SUMMARY: ({ code }: { code: ReasonCode }) => REASONS[code].summary,
  SCOPE_NOT_PROCESSED: ({ code }: { code: ReasonCode }) =>
    `${REASONS[code].summary} The requested scope cannot be processed in this workflow.`,

  // The drill and the debugger.
  DRILL_VERDICT: ({ code, detail }: { code: ReasonCode; detail: string }) =>
    `${REASONS[code].summary} ${detail}`.trim(),
  RECEIPT_HASH_DIFFERS: () => 'Its content hashes to a different id.',
  ENGINES_DIFFER: ({ receipt, receiptSchema, engine, schema }: EngineVersions) =>
    `Receipt ${receipt ?? 'an unknown engine'} (${receiptSchema}); engine ${engine} (${schema}).`,
  CURRENT_INPUTS_FAILED: ({ code, problem }: { code: ReasonCode; problem: string }) => `${code}: ${problem}`,
  FAILED_CLOSED_WITH: ({ failure }: { failure: string | null }) => `It failed closed with ${failure ?? 'a failure'}.`,
  DECLARED_AFTER_RECEIPT: ({ changes }: { changes: readonly string[] }) =>
    `Declared after the receipt: ${changes.join(', ')}.`,
  REPERFORMED_ELSEWHERE: ({ made, again }: { made: string; again: string }) =>
    `It was made by ${made} and reperformed by ${again}: the same bytes but for the adapter's name.`,
  DECLARED_INPUTS_GIVE: ({ receipt }: { receipt: string }) => `Compiling its declared inputs gives receipt ${receipt}.`,
  CLAIMED_CONTRACT_FINGERPRINT: () => 'The contract it carries does not hash to the contract fingerprint it claims.',
  CLAIMED_SELECTED: () => 'Its selected list is not the rows it marks selected.',
  CLAIMED_ROW: () => 'Its own contract decides otherwise for a record still at hand in the version it names.',
  RECORDS_NOT_AT_HAND: () =>
    'Its record set is not at hand; its claims on the records still at hand held when reperformed.',
  INPUTS_NOT_AT_HAND: () => 'Its own inputs were not at hand, so its claims were not reperformed.',
  CONTRACT_DIFFERS: () => 'The contract fingerprint differs from the receipt.',
  PACKET_DIFFERS: () => 'The current inputs compile to a different packet.',
  RECORD_SET_DIFFERS: () => 'The record-set digest differs from the receipt.',
  SWITCHES_DIFFER: ({ controls, lateChanges, nowControls, nowLateChanges }: SwitchesThenAndNow) =>
    `Compiled with controls [${controls.join(', ')}] and late changes [${lateChanges.join(', ')}]; now ` +
    `[${nowControls.join(', ')}] and [${nowLateChanges.join(', ')}].`,
  NOTHING_COMPILED_YET: () => 'Nothing has been compiled yet.',
  NOTHING_COMPILED_NOW: () => 'Nothing is compiled now.',
  NO_RECORD_IN_VIEW: ({ id }: { id: string }) => `No record "${id}" in this view.`,
  INPUTS_CHANGED_INSPECT_AGAIN: () => 'The inputs changed: inspect the record again.',
  EXPERIMENT_FAILED: ({ reason }: { reason: string }) => `The worker could not run the experiment: ${reason}`,
} as const;
