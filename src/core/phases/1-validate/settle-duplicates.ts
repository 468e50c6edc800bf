import {
  err,
  ok,
  type CompileError,
  type InputIssue,
  type Result,
  type SourceLocation,
  type UnreadableRecord,
} from '../../errors';
import type { Contract } from '../../format/contract';
import { invalidInput } from '../../format/input-issues';
import { quoteValue } from '../../format/json-text';
import { inputIssue } from '../../issues';
import { withheldByContract } from '../4-admit/admit';
import { recordSetOf, type CheckedRecord, type RecordSet } from './validate';

interface Copy {
  readonly checked: CheckedRecord;
  readonly location: SourceLocation;
}

const lineOf = (location: SourceLocation) => (location.line === undefined ? location.file : `line ${location.line}`);

/**
 * Settles records that share an id, so that a copy the caller may not see never changes what happens to one
 * they may: the copies the contract withholds are inadmissible (unreadable, counted among the withheld), and
 * the one copy left stands at its own line. Two copies the caller may see are a refusal naming
 * only them. When every copy is withheld the first stands, withheld like the rest.
 */
export function settleDuplicates(contract: Contract, recordSet: RecordSet): Result<RecordSet, CompileError> {
  if (recordSet.duplicates.length === 0) return ok(recordSet);
  const copiesById = new Map<string, Copy[]>();
  for (const duplicate of recordSet.duplicates) {
    const { id } = duplicate.checked.record;
    let copies = copiesById.get(id);
    if (copies === undefined) {
      const first = recordSet.byId.get(id);
      copies =
        first === undefined
          ? []
          : [{ checked: first, location: recordSet.locations.get(id) ?? { file: duplicate.location.file } }];
      copiesById.set(id, copies);
    }
    copies.push(duplicate);
  }
  const refusals: InputIssue[] = [];
  const dropped: UnreadableRecord[] = [];
  const standing = new Map<string, Copy>();
  for (const [id, copies] of copiesById) {
    const visible = copies.filter((copy) => !withheldByContract(contract, copy.checked.record));
    const [kept = copies[0], ...seen] = visible;
    if (kept === undefined) continue;
    for (const copy of seen)
      refusals.push(
        inputIssue({ file: copy.location.file, line: copy.location.line, path: 'id' }, 'DUPLICATE_ID', {
          id: quoteValue(id),
          first: lineOf(kept.location),
        }),
      );
    standing.set(id, kept);
    for (const copy of copies) {
      if (copy !== kept && !seen.includes(copy))
        dropped.push({
          location: copy.location,
          issues: [
            inputIssue({ file: copy.location.file, line: copy.location.line, path: 'id' }, 'DUPLICATE_ID', {
              id: quoteValue(id),
              first: lineOf(kept.location),
            }),
          ],
        });
    }
  }
  if (refusals.length > 0)
    return err(invalidInput(refusals[0]?.file ?? 'records', refusals, refusals.length, 'records file'));
  // In file order, each standing copy at its own line: where a withheld copy stood leaves no trace in the order.
  const placed = recordSet.checked
    .filter((item) => !standing.has(item.record.id))
    .map((item) => ({ checked: item, location: recordSet.locations.get(item.record.id) ?? { file: '' } }));
  for (const copy of standing.values()) placed.push(copy);
  placed.sort((a, b) => (a.location.line ?? 0) - (b.location.line ?? 0));
  const checked = placed.map((copy) => copy.checked);
  const locations = new Map(recordSet.locations);
  for (const [id, copy] of standing) locations.set(id, copy.location);
  const unreadable = [...recordSet.unreadable, ...dropped].sort(
    (a, b) => (a.location.line ?? 0) - (b.location.line ?? 0),
  );
  return ok(recordSetOf(checked, locations, { unreadable, duplicates: [] }));
}
