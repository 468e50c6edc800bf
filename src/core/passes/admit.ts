import { err, ok, type CompileError, type Result } from '../errors';
import { computeAll, type Derive } from '../memo';
import type { Fact } from '../reasons';
import { createGateContext, evaluateGates, GATE_BIT, gateFact, sameVerdict, type GateContext, type GateVerdict } from './gates';
import type { Resolution } from './resolve';
import type { CheckedRecord } from './validate';

export interface Admission {
  readonly gates: GateContext;
  /** Per position (id order): the gates the record fails, supersession included; 0 when admitted. */
  readonly failed: Int32Array;
  /** Per position: the fact of the first failed gate, null when admitted. */
  readonly facts: readonly (Fact | null)[];
  /** The admitted positions, ascending (id order). */
  readonly admitted: readonly number[];
  readonly admittedIds: ReadonlySet<string>;
}

export function divergence(id: string, detail: string): CompileError {
  return {
    pass: 'admit',
    code: 'ADMISSION_DIVERGENCE',
    recordId: id,
    message: `Admission disagreement on ${id}: ${detail}. Nothing is emitted until the lowering and the evaluator agree.`,
  };
}

/**
 * Pass 4: the TypeScript evaluator decides every record's verdict, and the result must equal what the
 * SQL lowering admitted (`sqlAdmitted`, computed by the record index from the database alone); any
 * difference stops compilation. The two sides share no derived state: each finds its own answer.
 */
export function admit(resolution: Resolution, sqlAdmitted: ReadonlySet<string>, derive: Derive = computeAll): Result<Admission, CompileError> {
  const gates = createGateContext(resolution.contract);
  const verdicts = derive.map('admit:gates', gates.key, resolution.records, (item) => evaluateGates(gates, item), sameVerdict);
  const count = resolution.records.length;
  const failed = new Int32Array(count);
  const facts = new Array<Fact | null>(count);
  const admitted: number[] = [];
  const admittedIds = new Set<string>();
  for (let position = 0; position < count; position += 1) {
    const item = resolution.records[position] as CheckedRecord;
    const verdict = verdicts[position] as GateVerdict;
    const successor = resolution.supersededBy[position] ?? null;
    failed[position] = verdict.failed | (successor === null ? 0 : GATE_BIT.supersession);
    // Supersession is the fifth gate: it names the failure only when none of the four before it failed.
    const supersessionFirst = successor !== null && (verdict.failed & (GATE_BIT.supersession - 1)) === 0;
    facts[position] = supersessionFirst ? gateFact(gates, item, 'supersession', successor) : verdict.fact;
    if (failed[position] === 0) {
      admitted.push(position);
      admittedIds.add(item.record.id);
    }
  }

  for (const id of sqlAdmitted) {
    if (admittedIds.has(id)) continue;
    const position = resolution.indexOf.get(id);
    if (position === undefined) return err(divergence(id, 'the SQL index returned a record that is not in the supplied set'));
    return err(divergence(id, `SQL admitted it but the evaluator refuses it (${facts[position]?.fact ?? 'a gate'})`));
  }
  for (const id of admittedIds) {
    if (!sqlAdmitted.has(id)) return err(divergence(id, 'the evaluator admits it but the SQL lowering did not return it'));
  }
  return ok({ gates, failed, facts, admitted, admittedIds });
}
