import { err, ok, type CompileError, type Result } from '../errors';
import type { SqlDriver } from '../search/driver';
import type { SqlRestriction } from '../search/rank';
import { createGateContext, evaluateGates, type Admission } from './gates';
import { lowerAdmission, type LoweredAdmission } from './lower-admission';
import type { Resolution } from './resolve';

export interface AdmissionResult {
  readonly verdicts: ReadonlyMap<string, Admission>;
  readonly admitted: ReadonlySet<string>;
  readonly lowered: LoweredAdmission;
  /** The rows the lowering admitted, held in a temp table until the next admission on this driver: ranking joins them. */
  readonly candidates: SqlRestriction;
}

const ADMITTED_ROWS: SqlRestriction = { where: 'r.rowid IN (SELECT rowid FROM admitted_rows)', params: [] };

function loadTempTables(driver: SqlDriver, lowered: LoweredAdmission): void {
  driver.exec('DELETE FROM identity_names; DELETE FROM accepted_evidence; DELETE FROM admitted_rows;');
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

/**
 * Pass 4: the SQL candidate generator and the TypeScript evaluator each decide the admitted set;
 * any difference stops compilation. Assumes the index holds exactly the resolution's records.
 */
export function admit(resolution: Resolution, driver: SqlDriver): Result<AdmissionResult, CompileError> {
  const context = createGateContext(resolution.contract);
  const verdicts = new Map<string, Admission>();
  const admitted = new Set<string>();
  for (const item of resolution.records) {
    const verdict = evaluateGates(context, item);
    verdicts.set(item.record.id, verdict);
    if (verdict.admitted) admitted.add(item.record.id);
  }

  const lowered = lowerAdmission(resolution.contract, driver.maxParameters);
  if (!lowered.ok) return lowered;
  loadTempTables(driver, lowered.value);
  // Evaluated once here; ranking then looks rows up instead of re-evaluating every gate for each match.
  driver.all(`INSERT INTO admitted_rows SELECT r.rowid FROM records r WHERE ${lowered.value.where}`, lowered.value.params);
  const sqlAdmitted = new Set(driver.all('SELECT r.id FROM admitted_rows a JOIN records r ON r.rowid = a.rowid').map(([id]) => String(id)));

  for (const id of sqlAdmitted) {
    const verdict = verdicts.get(id);
    if (verdict === undefined) return err(divergence(id, 'the SQL index returned a record that is not in the supplied set'));
    if (!verdict.admitted) return err(divergence(id, `SQL admitted it but the evaluator refuses it (${verdict.first.fact})`));
  }
  for (const id of admitted) {
    if (!sqlAdmitted.has(id)) return err(divergence(id, 'the evaluator admits it but the SQL lowering did not return it'));
  }
  return ok({ verdicts, admitted, lowered: lowered.value, candidates: ADMITTED_ROWS });
}
