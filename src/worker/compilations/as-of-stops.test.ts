import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareStrings } from '../../core/canonical';
import { formatInstantShort, parseInstant } from '../../core/format/time';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import { asOfStops, type ViewSource } from './debug-views';
import { AS_OF_STOP_RECORDS, AS_OF_STOPS_EACH_SIDE, type AsOfStop } from '../protocol';

describe('as-of stops', () => {
  it('as-of stops are the nearest instants on each side with their records, as a map of every instant gives them', () => {
    const DAY = 86_400_000;
    const day = fc.integer({ min: 0, max: 30 }).map((offset) => Date.UTC(2026, 0, 1) + offset * DAY);
    const recordArbitrary = fc.record({
      knownAt: day,
      validFrom: day,
      validTo: fc.option(day, { nil: null }),
      withheld: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(recordArbitrary, { maxLength: 60 }), day, (drawn, asOfMs) => {
        const checked = drawn.map(({ knownAt, validFrom, validTo }, index) => ({
          record: { id: `r${String(index).padStart(2, '0')}` },
          knownAt,
          validFrom,
          validTo,
        }));
        const withheld = new Set(
          drawn.flatMap((record, index) => (record.withheld ? [`r${String(index).padStart(2, '0')}`] : [])),
        );
        const asOf = new Date(asOfMs).toISOString().slice(0, 10);
        const source = {
          request: { contract: { asOf }, recordSet: { checked } },
          view: { withheld },
        } as unknown as ViewSource;
        expect(asOfStops(source, [])).toEqual(everyInstantStops(checked as unknown as CheckedRecord[], withheld, asOf));
      }),
    );
  });
});

/** The stops worked out the plain way, every instant's records in one map: what asOfStops must agree with. */
function everyInstantStops(records: readonly CheckedRecord[], withheld: ReadonlySet<string>, asOfText: string) {
  const asOf = parseInstant(asOfText) ?? 0;
  const byInstant = new Map<number, { id: string; kind: AsOfStop['records'][number]['kind'] }[]>();
  const add = (at: number, id: string, kind: AsOfStop['records'][number]['kind']) =>
    byInstant.set(at, [...(byInstant.get(at) ?? []), { id, kind }]);
  for (const checked of records) {
    const { id } = checked.record;
    if (withheld.has(id)) continue;
    add(checked.knownAt, id, 'knownAt');
    if (checked.validFrom !== checked.knownAt) add(checked.validFrom, id, 'validFrom');
    if (checked.validTo !== null) add(checked.validTo + 1, id, 'expires');
  }
  const instants = [...byInstant.keys()].sort((a, b) => a - b);
  const stop = (at: number) => {
    const stopped = (byInstant.get(at) ?? []).sort((a, b) => compareStrings(a.id, b.id));
    return {
      at: formatInstantShort(at),
      records: stopped.slice(0, AS_OF_STOP_RECORDS),
      more: Math.max(0, stopped.length - AS_OF_STOP_RECORDS),
    };
  };
  return {
    asOf: asOfText,
    before: instants
      .filter((at) => at < asOf)
      .slice(-AS_OF_STOPS_EACH_SIDE)
      .map(stop),
    after: instants
      .filter((at) => at > asOf)
      .slice(0, AS_OF_STOPS_EACH_SIDE)
      .map(stop),
    total: instants.length,
    lockedBy: null,
  };
}
