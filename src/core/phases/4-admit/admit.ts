import { compileError, err, ok, type CompileError, type Result } from '../../errors';
import { createGateContext, evaluateGates, type GateContext, type GateVerdict } from './gates';
import type { IdPositions, Resolution } from '../2-resolve/resolve';

export interface Admission {
  readonly gates: GateContext;
  /** Per position (id order): every gate the record fails (none when admitted) and the fact of the first. */
  readonly verdicts: readonly GateVerdict[];
  /** The admitted positions, ascending (id order). */
  readonly admitted: readonly number[];
  readonly admittedIds: ReadonlySet<string>;
  /**
   * Each admitted id's position: the ranking names records by id, and a search of every id per name costs more than
   * the map.
   */
  readonly admittedAt: ReadonlyMap<string, number>;
}

/** The admitted positions' ids and each id's position. */
export function admittedSets(
  indexOf: IdPositions,
  admitted: readonly number[],
): Pick<Admission, 'admitted' | 'admittedIds' | 'admittedAt'> {
  const admittedIds = new Set<string>();
  const admittedAt = new Map<string, number>();
  for (const position of admitted) {
    const id = indexOf.idAt(position);
    admittedIds.add(id);
    admittedAt.set(id, position);
  }
  return { admitted, admittedIds, admittedAt };
}

export function divergence(id: string, detail: string): CompileError {
  return compileError({ pass: 'admit', code: 'ADAPTER_MISMATCH', recordId: id }, 'ADMISSION_DISAGREEMENT', {
    record: id,
    detail,
  });
}

/** The admitted positions (no gate failed), ascending. */
export function admittedPositions(verdicts: readonly GateVerdict[]): number[] {
  const positions: number[] = [];
  for (let position = 0; position < verdicts.length; position += 1)
    if ((verdicts[position] as GateVerdict).failed === 0) positions.push(position);
  return positions;
}

/**
 * The reference evaluator's admitted set must equal the candidates the store admitted (`storeAdmitted`):
 * any difference stops compilation, naming a record on which they disagree.
 */
export function checkAgreement(
  resolution: Resolution,
  verdicts: readonly GateVerdict[],
  admittedIds: ReadonlySet<string>,
  storeAdmitted: ReadonlySet<string>,
): Result<null, CompileError> {
  for (const id of storeAdmitted) {
    if (admittedIds.has(id)) continue;
    const position = resolution.indexOf.get(id);
    if (position === undefined)
      return err(divergence(id, 'the SQL index returned a record that is not in the supplied set'));
    return err(
      divergence(id, `SQL admitted it but the evaluator refuses it (${verdicts[position]?.fact?.fact ?? 'a gate'})`),
    );
  }
  // Every store id is admitted here too: sets of the same size are then the same set.
  if (storeAdmitted.size !== admittedIds.size) {
    for (const id of admittedIds) {
      if (!storeAdmitted.has(id))
        return err(divergence(id, 'the evaluator admits it but the SQL lowering did not return it'));
    }
  }
  return ok(null);
}

/**
 * Pass 4: the TypeScript evaluator (the reference every adapter is compared with) decides every record's
 * verdict (`evaluateGates`, one record at a time), and the result must equal the candidates the adapter
 * admitted from its own store (`sqlAdmitted`); any difference stops compilation. The two sides share no
 * derived state: each finds its own answer.
 */
export function admit(resolution: Resolution, sqlAdmitted: ReadonlySet<string>): Result<Admission, CompileError> {
  const gates = createGateContext(resolution.contract);
  const verdicts = resolution.records.map((resolved) => evaluateGates(gates, resolved));
  const sets = admittedSets(resolution.indexOf, admittedPositions(verdicts));
  const agreed = checkAgreement(resolution, verdicts, sets.admittedIds, sqlAdmitted);
  return agreed.ok ? ok({ gates, verdicts, ...sets }) : agreed;
}
