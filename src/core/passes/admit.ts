import { canonicalJson } from '../canonical';
import { err, ok, type CompileError, type Result } from '../errors';
import type { SqlDriver } from '../search/driver';
import { createGateContext, evaluateGates, type Admission, type GateContext } from './gates';
import { lowerAdmission, type LoweredAdmission } from './lower-admission';
import type { Resolution, ResolvedRecord } from './resolve';

export interface AdmissionResult {
  /** One verdict per record, aligned with `resolution.records`. */
  readonly verdicts: readonly Admission[];
  readonly verdictOf: (id: string) => Admission | undefined;
  /** What the evaluator admits; equal to what the SQL lowering admits, or admission stopped. */
  readonly admitted: ReadonlySet<string>;
  /** The admitted records' positions in `resolution.records`, ascending. */
  readonly admittedPositions: readonly number[];
  readonly lowered: LoweredAdmission;
  /** Everything in the contract and resolution that a verdict depends on: equal keys allow reusing verdicts. */
  readonly gateKey: string;
  /** When verdicts were reused from `since`, the positions evaluated again; null when every record was. */
  readonly changes: { readonly since: AdmissionResult; readonly positions: readonly number[] } | null;
}

/**
 * The SQL side of admission for one database. It remembers the predicate it last ran and the ids it
 * admitted, so after a sync that touched a few records it re-runs the predicate over those rows only.
 */
export interface SqlAdmission {
  /** Records whose rows changed since the last admission (or whose admission depends on a row that did). */
  touch(ids: Iterable<string>): void;
  admittedIds(lowered: LoweredAdmission): ReadonlySet<string>;
}

export function createSqlAdmission(driver: SqlDriver): SqlAdmission {
  let state: { key: string; admitted: Set<string> } | null = null;
  const touched = new Set<string>();
  return {
    touch(ids) {
      for (const id of ids) touched.add(id);
    },
    admittedIds(lowered) {
      const key = canonicalJson([lowered.where, lowered.params, lowered.identityNames, lowered.acceptedEvidence]);
      if (state?.key === key) {
        if (touched.size > 0) {
          const ids = JSON.stringify([...touched]);
          const rows = driver.all(`SELECT r.id FROM records r WHERE r.id IN (SELECT value FROM json_each(?)) AND (${lowered.where})`, [ids, ...lowered.params]);
          for (const id of touched) state.admitted.delete(id);
          for (const [id] of rows) state.admitted.add(String(id));
        }
      } else {
        state = null;
        loadTempTables(driver, lowered);
        const rows = driver.all(`SELECT r.id FROM records r WHERE ${lowered.where}`, lowered.params);
        state = { key, admitted: new Set(rows.map(([id]) => String(id))) };
      }
      touched.clear();
      return state.admitted;
    },
  };
}

function loadTempTables(driver: SqlDriver, lowered: LoweredAdmission): void {
  driver.exec('DELETE FROM identity_names; DELETE FROM accepted_evidence;');
  const names = driver.prepare('INSERT INTO identity_names VALUES (?, ?)');
  const evidence = driver.prepare('INSERT INTO accepted_evidence VALUES (?, ?)');
  try {
    for (const row of lowered.identityNames) names.run(row);
    for (const row of lowered.acceptedEvidence) evidence.run(row);
  } finally {
    names.finalize();
    evidence.finalize();
  }
}

export function divergence(id: string, detail: string): CompileError {
  return {
    pass: 'admit',
    code: 'ADMISSION_DIVERGENCE',
    recordId: id,
    fact: detail,
    message: `Admission disagreement on ${id}: ${detail}. Nothing is emitted until the lowering and the evaluator agree.`,
  };
}

/** Fields that no gate reads: changing them (a new query, a bigger budget) keeps every verdict. */
const NOT_GATED = { task: null, query: null, tokenBudget: null, naiveTopK: null, ranking: null };

function gateKeyOf(resolution: Resolution): string {
  return `${resolution.key}\u0000${canonicalJson({ ...resolution.contract.contract, ...NOT_GATED })}`;
}

export interface AdmissionReuse {
  readonly sql: SqlAdmission;
  /** The last successful resolution and admission on this database, whose verdicts may be reused. */
  readonly previous: { readonly resolution: Resolution; readonly admission: AdmissionResult } | null;
}

/**
 * Pass 4: the SQL candidate generator and the TypeScript evaluator each decide the admitted set;
 * any difference stops compilation. Assumes the index holds exactly the resolution's records.
 * With `reuse`, a record whose resolved object and gate-relevant contract are unchanged keeps its
 * verdict, and SQL re-runs the predicate only over touched rows; the two sets are still compared whole.
 */
export function admit(resolution: Resolution, driver: SqlDriver, reuse?: AdmissionReuse): Result<AdmissionResult, CompileError> {
  const gateKey = gateKeyOf(resolution);
  const previous = reuse?.previous;
  const aligned = previous !== null && previous !== undefined && previous.admission.gateKey === gateKey && previous.resolution.indexOf === resolution.indexOf ? previous : null;
  let context: GateContext | null = null;
  const changes = resolution.changes;
  // The resolution says which positions can differ from the one the last verdicts were made for.
  const onlyChanges = aligned !== null && changes !== null && changes.since === aligned.resolution;
  const fresh = onlyChanges ? aligned.admission.verdicts.slice() : new Array<Admission>(resolution.records.length);
  const evaluated: number[] = [];
  const evaluate = (position: number) => {
    const item = resolution.records[position] as ResolvedRecord;
    let verdict = aligned !== null && aligned.resolution.records[position] === item ? aligned.admission.verdicts[position] : undefined;
    if (verdict === undefined) {
      context ??= createGateContext(resolution.contract);
      verdict = evaluateGates(context, item);
      evaluated.push(position);
    }
    fresh[position] = verdict;
  };
  if (onlyChanges) {
    for (const position of changes.positions) evaluate(position);
  } else {
    for (let position = 0; position < fresh.length; position += 1) evaluate(position);
  }
  const unchanged = aligned !== null && evaluated.length === 0 && aligned.admission.verdicts.length === fresh.length;
  // Nothing re-evaluated: the last verdicts, admitted set and positions stand as they were.
  const reused = unchanged && aligned !== null ? aligned.admission : null;
  const verdicts = reused?.verdicts ?? fresh;
  let admitted = reused?.admitted;
  let admittedPositions = reused?.admittedPositions;
  if ((admitted === undefined || admittedPositions === undefined) && onlyChanges) {
    // A few verdicts changed: adjust the last admitted set instead of reading every verdict again.
    const ids = new Set(aligned.admission.admitted);
    const positions = new Set(aligned.admission.admittedPositions);
    for (const position of evaluated) {
      const id = (resolution.records[position] as ResolvedRecord).record.id;
      if ((fresh[position] as Admission).admitted) {
        ids.add(id);
        positions.add(position);
      } else {
        ids.delete(id);
        positions.delete(position);
      }
    }
    admitted = ids;
    admittedPositions = [...positions].sort((a, b) => a - b);
  }
  if (admitted === undefined || admittedPositions === undefined) {
    const ids = new Set<string>();
    const positions: number[] = [];
    verdicts.forEach((verdict, position) => {
      if (!verdict.admitted) return;
      ids.add((resolution.records[position] as ResolvedRecord).record.id);
      positions.push(position);
    });
    admitted = ids;
    admittedPositions = positions;
  }
  const verdictOf = (id: string) => {
    const position = resolution.indexOf.get(id);
    return position === undefined ? undefined : verdicts[position];
  };

  const lowered = lowerAdmission(resolution.contract, driver.maxParameters);
  if (!lowered.ok) return lowered;
  const sqlAdmitted = (reuse?.sql ?? createSqlAdmission(driver)).admittedIds(lowered.value);

  for (const id of sqlAdmitted) {
    if (admitted.has(id)) continue;
    const verdict = verdictOf(id);
    if (verdict === undefined) return err(divergence(id, 'the SQL index returned a record that is not in the supplied set'));
    if (!verdict.admitted) return err(divergence(id, `SQL admitted it but the evaluator refuses it (${verdict.first.fact})`));
  }
  for (const id of admitted) {
    if (!sqlAdmitted.has(id)) return err(divergence(id, 'the evaluator admits it but the SQL lowering did not return it'));
  }
  const verdictChanges = aligned !== null && aligned.admission.verdicts.length === fresh.length ? { since: aligned.admission, positions: evaluated } : null;
  return ok({ verdicts, verdictOf, admitted, admittedPositions, lowered: lowered.value, gateKey, changes: verdictChanges });
}
