import { compileError, err, ok, type CompileError, type Result } from '../errors';
import { computeAll, type Derive } from '../memo';
import { declareGates, evaluateGates, sameVerdict, type GateContext, type GateVerdict } from './gates';
import type { IdPositions, Resolution } from './resolve';

export interface Admission {
  readonly gates: GateContext;
  /** Per position (id order): every gate the record fails (none when admitted) and the fact of the first. */
  readonly verdicts: readonly GateVerdict[];
  /** The admitted positions, ascending (id order). */
  readonly admitted: readonly number[];
  readonly admittedIds: ReadonlySet<string>;
  /**
   * Each admitted id's position: the ranking names records by id, and a search of 100,000 ids per name cost more than
   * the map.
   */
  readonly admittedAt: ReadonlyMap<string, number>;
}

function admittedSets(
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

/**
 * Pass 4: the TypeScript evaluator (the reference every adapter is compared with) decides every record's
 * verdict, and the result must equal the candidates the adapter admitted from its own store (`sqlAdmitted`);
 * any difference stops compilation. The two sides share no derived state: each finds its own answer.
 */
export function admit(
  resolution: Resolution,
  sqlAdmitted: ReadonlySet<string>,
  derive: Derive = computeAll,
): Result<Admission, CompileError> {
  const declared = declareGates(resolution.contract);
  const gates = declared.inputs;
  const verdicts = derive.map(
    'admit:gates',
    declared,
    resolution.records,
    (resolved, context) => evaluateGates(context, resolved),
    sameVerdict,
  );
  const positions: number[] = [];
  for (let position = 0; position < verdicts.length; position += 1)
    if ((verdicts[position] as GateVerdict).failed === 0) positions.push(position);
  // The same admitted positions among the same ids are the same admitted set: the sets below are the last
  // compilation's objects, and what is derived from them (the plan's admitted part) is reused too.
  const { admitted, admittedIds, admittedAt } = derive.cell(
    'admit:admitted',
    [resolution.indexOf, ...positions],
    ([indexOf, ...at]) => admittedSets(indexOf, at),
  );

  for (const id of sqlAdmitted) {
    if (admittedIds.has(id)) continue;
    const position = resolution.indexOf.get(id);
    if (position === undefined)
      return err(divergence(id, 'the SQL index returned a record that is not in the supplied set'));
    return err(
      divergence(id, `SQL admitted it but the evaluator refuses it (${verdicts[position]?.fact?.fact ?? 'a gate'})`),
    );
  }
  // Every SQL id is admitted here too: sets of the same size are then the same set.
  if (sqlAdmitted.size !== admittedIds.size) {
    for (const id of admittedIds) {
      if (!sqlAdmitted.has(id))
        return err(divergence(id, 'the evaluator admits it but the SQL lowering did not return it'));
    }
  }
  return ok({ gates, verdicts, admitted, admittedIds, admittedAt });
}
